-- wrk script for the slow-stream soak (side-by-side.sh): POST a streaming request and check every answer.
-- Set by environment: BENCH_BODY, BENCH_KEY, BENCH_MARKER (the text a complete stream ends with),
-- BENCH_STALL_US (a stream that took longer than this is counted as stalled).
-- Prints one line at the end: "SOAK ok=N stalled=N incomplete=N": ok = a 200 whose body ends the stream (has the
-- marker); incomplete = a 200 whose body lacks it (wrk itself only sees that the HTTP message ended).
wrk.method = "POST"
wrk.body = os.getenv("BENCH_BODY")
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("BENCH_KEY")

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  marker = os.getenv("BENCH_MARKER")
  ok = 0
  incomplete = 0
end

function response(status, headers, body)
  if status ~= 200 then return end
  if string.find(body, marker, 1, true) then ok = ok + 1 else incomplete = incomplete + 1 end
end

-- wrk keeps every duration (µs) in a histogram but only exposes percentiles: find by bisection the largest
-- percentile still within the stall threshold; the requests above it are the stalled ones. wrk records every
-- completed request as long as --timeout exceeds the run, so summary.requests is the histogram's count.
function done(summary, latency, requests)
  local stall = tonumber(os.getenv("BENCH_STALL_US"))
  local n = summary.requests
  local stalled = 0
  if n > 0 and latency.max > stall then
    local lo, hi = 0, 100
    for _ = 1, 60 do
      local mid = (lo + hi) / 2
      if latency:percentile(mid) <= stall then lo = mid else hi = mid end
    end
    stalled = math.floor(n * (100 - lo) / 100 + 0.5)
  end
  local good, bad = 0, 0
  for _, t in ipairs(threads) do
    good = good + (t:get("ok") or 0)
    bad = bad + (t:get("incomplete") or 0)
  end
  io.write(string.format("SOAK ok=%d stalled=%d incomplete=%d\n", good, stalled, bad))
end
