#!/usr/bin/env node
// The `cashback` command (package.json `bin`): `cashback serve` runs the partner HTTP API,
// `cashback migrate` brings a database's schema up to date.
// Options, signals and exit codes: docs/cli.md.
import { run } from './program.js';

void run(process.argv);
