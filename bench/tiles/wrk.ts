import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export interface WrkOptions {
  /** Scheme, host and port, e.g. http://127.0.0.1:8080. */
  base: string;
  /** One request path a line; wrk cycles through them in order. */
  pathsFile: string;
  connections: number;
  seconds: number;
  headers: Record<string, string>;
  /** Stop once this many requests were issued (one pass over the list); null cycles until the time is up. */
  limit: number | null;
  /** Folder for the generated Lua script. */
  dir: string;
}

export interface WrkResult {
  /** Completed requests. */
  requests: number;
  seconds: number;
  perSecond: number;
  /** From wrk's own latency histogram, in milliseconds. */
  p50: number;
  p75: number;
  p90: number;
  p99: number;
  max: number;
  /** Socket errors and answers other than 2xx/3xx. */
  errors: number;
  bytes: number;
}

/** A Lua string literal for printable ASCII text. */
function luaString(text: string): string {
  if (!/^[\x20-\x7e]*$/.test(text)) throw new Error(`not printable ASCII: ${text}`);
  return `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/**
 * wrk's script: requests the listed paths in order (cycling), with the given headers. With a limit (a cold
 * pass) it stops its thread once that many answers came back, and times the pass itself from the first request
 * to the last answer (CLOCK_MONOTONIC through LuaJIT's FFI): wrk's own run time is always the full duration.
 * `done` prints wrk's summary and latency distribution as one JSON line. Only a limited run defines
 * `response`, which makes wrk hand every body to Lua.
 */
function script(options: WrkOptions): string {
  const headers = Object.entries(options.headers)
    .map(([name, value]) => `wrk.headers[${luaString(name)}] = ${luaString(value)}`)
    .join('\n');
  const limited = options.limit != null;
  return `local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
int clock_gettime(int clock, bench_timespec *ts);
]]
local ts = ffi.new("bench_timespec")
local function now_us()
  ffi.C.clock_gettime(1, ts)
  return tonumber(ts.tv_sec) * 1e6 + tonumber(ts.tv_nsec) / 1e3
end
local paths = {}
for line in io.lines(${luaString(options.pathsFile)}) do
  if #line > 0 then paths[#paths + 1] = line end
end
local count = #paths
local limit = ${options.limit ?? 0}
local issued = 0
answered = 0
first_us = 0
last_us = 0
${headers}
function request()
  if issued == 0 then first_us = now_us() end
  issued = issued + 1
  return wrk.format("GET", paths[((issued - 1) % count) + 1])
end
${
  limited
    ? `function response(status, headers, body)
  answered = answered + 1
  last_us = now_us()
  if answered == limit then wrk.thread:stop() end
end`
    : ''
}
local threads = {}
function setup(thread)
  threads[#threads + 1] = thread
end
function done(summary, latency, requests)
  local e = summary.errors
  local duration = summary.duration
  local thread = threads[1]
  if ${limited ? 'true' : 'false'} and thread ~= nil and thread:get("last_us") > 0 then
    duration = thread:get("last_us") - thread:get("first_us")
  end
  io.write(string.format('WRK_JSON {"requests":%.0f,"duration":%.0f,"bytes":%.0f,"p50":%.0f,"p75":%.0f,"p90":%.0f,"p99":%.0f,"max":%.0f,"errors":%.0f}\\n',
    summary.requests, duration, summary.bytes,
    latency:percentile(50), latency:percentile(75), latency:percentile(90), latency:percentile(99), latency.max,
    e.connect + e.read + e.write + e.status + e.timeout))
end
`;
}

interface WrkJson {
  requests: number;
  duration: number;
  bytes: number;
  p50: number;
  p75: number;
  p90: number;
  p99: number;
  max: number;
  errors: number;
}

/** One wrk run on one thread (the machine's cores are left to the server), request timeout 30 s. */
export async function runWrk(options: WrkOptions): Promise<WrkResult> {
  const file = path.join(options.dir, `wrk-${process.pid}-${Date.now()}.lua`);
  await fs.writeFile(file, script(options));
  try {
    const { stdout } = await execFileAsync(
      'wrk',
      [
        '-t1',
        `-c${options.connections}`,
        `-d${options.seconds}s`,
        '--timeout',
        '30s',
        '--latency',
        '-s',
        file,
        options.base,
      ],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    const line = stdout.split('\n').find((text) => text.startsWith('WRK_JSON '));
    if (line == null) throw new Error(`wrk printed no summary:\n${stdout}`);
    const json = JSON.parse(line.slice('WRK_JSON '.length)) as WrkJson;
    const seconds = json.duration / 1e6;
    // A cold pass is timed to its limit-th answer; a few more may complete in the same turn of wrk's loop.
    const requests = options.limit == null ? json.requests : Math.min(json.requests, options.limit);
    return {
      requests,
      seconds,
      perSecond: requests / seconds,
      p50: json.p50 / 1000,
      p75: json.p75 / 1000,
      p90: json.p90 / 1000,
      p99: json.p99 / 1000,
      max: json.max / 1000,
      errors: json.errors,
      bytes: json.bytes,
    };
  } finally {
    await fs.rm(file, { force: true });
  }
}
