#!/usr/bin/env node
import { ConfigError } from '../config/config.js';
import { runCli } from './commands.js';

// The entry point: the only place that reads process.env and decides the exit code.
try {
  const code = await runCli(process.argv.slice(2), process.env);
  if (code !== undefined) process.exitCode = code;
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`herald: ${error.message}\n`);
    process.exitCode = 2;
  } else {
    throw error;
  }
}
