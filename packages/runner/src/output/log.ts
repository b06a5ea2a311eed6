// Where the command's lines go: stderr (text, or JSON lines with --json), debug lines only with
// --verbose, and with --log-file every line, debug included (as Chaos Toolkit's log file).
// Every line passes through core's `redact` first: secrets and what selects a cluster never
// reach the terminal or the file.

import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { closeSync, writeSync } from 'node:fs';
import type { ClientRequest, IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { ClientHttp2Stream } from 'node:http2';
import { redact } from '@chaoskit/core/runner';
import { openLogFile } from './writable.js';

export type Level = 'debug' | 'info' | 'warn' | 'error';

/** Where lines for people go. */
export interface Reporter {
  /** A line for people: what is happening now. */
  info(line: string): void;
  warn(line: string): void;
  /** A detail (`--verbose`, the log file): the activities' results, what was skipped and why. */
  debug?(line: string): void;
}

export interface LogOptions {
  /** JSON lines on stderr instead of text. */
  json?: boolean;
  /** Debug lines on stderr too. */
  verbose?: boolean;
  /** A file that receives every line (appended). */
  logFile?: string;
  /** The lowest level the file receives (default debug: every line). */
  fileLevel?: Level;
}

export interface Logger extends Required<Reporter> {
  error(line: string): void;
  /** A line for the log file only (what the command prints its own way). */
  toFile(level: Level, line: string): void;
  /** Stops listening to the requests and closes the log file. */
  close(): void;
}

const stamp = () => new Date().toISOString();
const LEVELS: readonly Level[] = ['debug', 'info', 'warn', 'error'];

export function createLogger(options: LogOptions = {}, stderr: (text: string) => void = writeStderr): Logger {
  let fd = options.logFile ? openLogFile('--log-file', options.logFile) : undefined;
  const lowest = LEVELS.indexOf(options.fileLevel ?? 'debug');
  const toFile = (level: Level, text: string, time = stamp()) => {
    if (fd !== undefined && LEVELS.indexOf(level) >= lowest)
      writeSync(fd, `${time} [${level.toUpperCase()}] ${redact(text)}\n`);
  };
  const line = (level: Level, text: string) => {
    const message = redact(text);
    const time = stamp();
    toFile(level, message, time);
    if (level === 'debug' && !options.verbose) return;
    stderr(
      options.json
        ? `${JSON.stringify({ time, level, message })}\n`
        : `[${time.slice(11, 19)} ${level.toUpperCase()}] ${message}\n`,
    );
  };
  const stopWatching =
    (fd !== undefined && lowest === 0) || options.verbose
      ? watchRequests((text) => line('debug', text))
      : noop;
  return {
    debug: (text) => line('debug', text),
    info: (text) => line('info', text),
    warn: (text) => line('warn', text),
    error: (text) => line('error', text),
    toFile: (level, text) => toFile(level, text),
    close: () => {
      stopWatching();
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}

function writeStderr(text: string) {
  process.stderr.write(text);
}

const noop = () => {};

/**
 * A debug line per request to a cluster (method, path, status), from Node's HTTP clients'
 * diagnostics (HTTP/2's and HTTP/1.1's): core's one HTTP layer is node:http2 and node:http(s),
 * so every request is seen, and nothing of it but the method, the path and the status is
 * written (never a header, never the host).
 */
function watchRequests(debug: (line: string) => void): () => void {
  const line = (method: unknown, path: unknown, outcome: string) =>
    debug(`${method} ${decodePath(String(path))} ${outcome}`);
  const channels: Record<string, (message: unknown) => void> = {
    'http.client.response.finish': (message) => {
      const { request, response } = message as { request: ClientRequest; response: IncomingMessage };
      line(request.method, request.path, String(response.statusCode));
    },
    'http.client.request.error': (message) => {
      const { request, error } = message as { request: ClientRequest; error: NodeJS.ErrnoException };
      line(request.method, request.path, `failed: ${error.code ?? error.message}`);
    },
    'http2.client.stream.finish': (message) => {
      const { stream, headers } = message as { stream: ClientHttp2Stream; headers: IncomingHttpHeaders };
      line(stream.sentHeaders[':method'], stream.sentHeaders[':path'], String(headers[':status']));
    },
    'http2.client.stream.error': (message) => {
      const { stream, error } = message as { stream: ClientHttp2Stream; error: NodeJS.ErrnoException };
      line(
        stream.sentHeaders[':method'],
        stream.sentHeaders[':path'],
        `failed: ${error.code ?? error.message}`,
      );
    },
  };
  for (const [name, listener] of Object.entries(channels)) subscribe(name, listener);
  return () => {
    for (const [name, listener] of Object.entries(channels)) unsubscribe(name, listener);
  };
}

/** `labelSelector=app%3Dweb` reads `labelSelector=app=web`. */
function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
