#!/usr/bin/env bash
# Thirty-second session, call 9: gpu-v32h.sh's check after the review's timer fixes (the launch's
# kernel count learned over every warmup), into v32i.
sed -e 's/out_dir v32h/out_dir v32i/' "$(dirname "${BASH_SOURCE[0]}")/gpu-v32h.sh" | bash -s
