#!/usr/bin/env bash
# Thirty-fourth session, call 6: tma_gather with a batch's first copies issued before its rows'
# statistics (kEarly), beside the same without: bulk at 16.8 and 33.6 MB partitions, cp.async.
exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-colblock.sh" v34f
