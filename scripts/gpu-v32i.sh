#!/usr/bin/env bash
# Thirty-second session, call 9: gpu-v32h.sh's check after the review's timer fixes (the launch's
# kernel count learned over every warmup), into v32i.
exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-v32h.sh" v32i
