#!/usr/bin/env node
import { DatabaseUnavailableError, DataDirectoryInUseError } from '@herald/store';
import { ConfigError } from '../config/config.js';
import { runCli } from './commands.js';

// The AWS SDK warns once per process on Node 20; Herald supports Node >= 20.19 on purpose, and the
// SDKs are imported lazily, after this line.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

// The entry point: the only place that reads process.env and decides the exit code.
try {
  const code = await runCli(process.argv.slice(2), process.env);
  if (code !== undefined) process.exitCode = code;
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`herald: ${error.message}\n`);
    process.exitCode = 2;
  } else if (error instanceof DatabaseUnavailableError || error instanceof DataDirectoryInUseError) {
    // Their messages name the database and the cause; a stack trace would add nothing.
    process.stderr.write(`herald: ${error.message}\n`);
    process.exitCode = 1;
  } else {
    throw error;
  }
}
