#!/usr/bin/env node
// The `cashback` command (package.json `bin`): `cashback serve` runs the partner HTTP API,
// `cashback migrate` brings a database's schema up to date.
// Options, signals and exit codes: docs/cli.md.
import { isMainThread } from 'node:worker_threads';
import { run } from './program.js';

// `replay --workers` starts worker threads on the module that holds their code, which may be
// this one: they must not run the command again.
if (isMainThread) void run(process.argv);
