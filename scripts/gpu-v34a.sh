#!/usr/bin/env bash
# Thirty-fourth session, call 1: the probe's tma_gather configurations (bulk RG 10 of R 20, five
# blocks, lag 15, first sleep 4096/2048 ns; cp.async; R 31) beside the baseline and, for the first
# time in one process, the seed kernel (csrgat_seed): target 2's 0.7x measured, not chained.
exec bash "$(dirname "${BASH_SOURCE[0]}")/gpu-colblock.sh" v34a
