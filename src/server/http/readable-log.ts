import type { LogStream } from './log-redaction.js';

/**
 * The server's log as a person reads it in a terminal during development (`npm start`, `npm run
 * dev`): one line per answered request and per message, instead of pino's JSON lines. Production
 * keeps the JSON (a log collector reads it); this only reformats lines that pino has already
 * written and scrubbed (http/log-redaction.ts), so it cannot show what the JSON would not.
 *
 *   14:03:07 INFO  Server listening at http://127.0.0.1:3000
 *   14:03:09       200 GET /api/products 4.1 ms
 *   14:03:12 WARN  404 GET /api/nope 0.9 ms
 *   14:03:15 ERROR unhandled error  reqId=req-7
 *                  TypeError: …
 *                      at …
 */

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** Fields every line has, or that the line's own text already shows. */
const SHOWN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'req', 'res', 'responseTime', 'err', 'reqId']);
const INDENT = ' '.repeat(15);

type Line = {
  level?: number;
  time?: number;
  msg?: string;
  reqId?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { type?: string; message?: string; stack?: string };
  [key: string]: unknown;
};

function clock(time: number | undefined): string {
  const d = time === undefined ? new Date() : new Date(time);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

function extras(line: Line): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(line)) {
    if (SHOWN.has(k) || v === undefined) continue;
    parts.push(`${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  }
  return parts.join(' ');
}

/**
 * Turns one of pino's JSON lines into readable text (with its trailing newline), or `null` for a
 * line that says nothing new: "incoming request", whose method and path the "request completed"
 * line repeats with its status and time. `pending` holds those until the request completes.
 */
export function readableLine(raw: string, pending: Map<string, string> = new Map()): string | null {
  let line: Line;
  try {
    line = JSON.parse(raw) as Line;
  } catch {
    return raw.endsWith('\n') ? raw : `${raw}\n`;
  }
  if (typeof line !== 'object' || line === null) return `${raw.trimEnd()}\n`;
  const level = LEVELS[line.level ?? 30] ?? String(line.level);
  const id = line.reqId;
  if (line.msg === 'incoming request' && line.req && id) {
    // A server that never answers would otherwise grow this: keep only the newest few hundred.
    if (pending.size > 500) pending.delete(pending.keys().next().value!);
    pending.set(id, `${line.req.method ?? ''} ${line.req.url ?? ''}`);
    return null;
  }
  let text: string;
  if (line.msg === 'request completed' && line.res) {
    const what = (id && pending.get(id)) ?? `(${id ?? 'request'})`;
    if (id) pending.delete(id);
    const status = line.res.statusCode ?? 0;
    const ms = typeof line.responseTime === 'number' ? ` ${line.responseTime.toFixed(1)} ms` : '';
    // A 4xx or 5xx stands out with its own level, as the JSON's reader would filter for it.
    const shown = status >= 500 ? 'ERROR' : status >= 400 ? 'WARN' : level === 'INFO' ? '' : level;
    text = `${clock(line.time)} ${shown.padEnd(5)} ${status} ${what}${ms}`;
  } else {
    const more = extras(line);
    const req = id ? `  reqId=${id}` : '';
    text = `${clock(line.time)} ${level.padEnd(5)} ${line.msg ?? ''}${more ? `  ${more}` : ''}${req}`;
  }
  if (line.err) {
    const stack = line.err.stack ?? `${line.err.type ?? 'Error'}: ${line.err.message ?? ''}`;
    text += `\n${stack
      .split('\n')
      .map((l) => INDENT + l)
      .join('\n')}`;
  }
  return `${text}\n`;
}

/** A pino destination that writes readable lines to `out` (stdout unless told). */
export function readableLogStream(out: { write: (s: string) => unknown } = process.stdout): LogStream {
  const pending = new Map<string, string>();
  return {
    write(chunk: string) {
      for (const raw of chunk.split('\n')) {
        if (!raw) continue;
        const text = readableLine(raw, pending);
        if (text !== null) out.write(text);
      }
    },
  };
}
