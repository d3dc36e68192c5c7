-- wrk script for fault-soak.sh: a mix of chat and messages calls, streaming and not, about 20% of them
-- carrying a simulator fault directive. Counts statuses per thread; done() prints the totals.
local key = os.getenv("SOAK_KEY") or "pk-soak-master-key"
local threads = {}

local function chat(stream, directive, options)
  return "/api/v1/chat/completions", '{"model":"platform/vendorB-5.5","stream":' .. stream ..
    (options and (',"platform_options":' .. options) or '') ..
    ',"messages":[{"role":"user","content":"[[sim:' .. directive .. ']] soak"}]}'
end

local function messages(stream, directive, options)
  return "/api/v1/messages", '{"model":"platform/vendorA-sonnet-4.5","max_tokens":64,"stream":' .. stream ..
    (options and (',"platform_options":' .. options) or '') ..
    ',"messages":[{"role":"user","content":"[[sim:' .. directive .. ']] soak"}]}'
end

-- Faults with times=1 and a unique id fail once, so the retry succeeds; the others fail every attempt.
local faults = {
  function(id) return "status=429;times=1;retry_after_ms=20;id=" .. id, nil end,            -- retried after 20 ms
  function(id) return "status=500;times=1;id=" .. id, nil end,                              -- retried after backoff
  function(id) return "status=503;times=2;id=" .. id, '{"fallbacks":["vendorD-plus-latest"]}' end, -- fallback answers
  function(id) return "disconnect_after=3;chunks=8;id=" .. id, nil end,                     -- cut mid-stream: error event
  function(id) return "delay_ms=1500;id=" .. id, '{"timeout":0.3}' end,                     -- deadline: 504, upstream reset
  function(id) return "status=400;id=" .. id, nil end,                                      -- not retried
}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  statuses = {}
  math.randomseed(os.time() + math.floor(os.clock() * 1000000))
end

function request()
  local id = string.format("%08x%04x", math.random(0, 0x7fffffff), math.random(0, 0xffff))
  local directive, options = "chunks=6;id=" .. id, nil
  if math.random() < 0.2 then directive, options = faults[math.random(#faults)](id) end
  local stream = (math.random() < 0.5) and "true" or "false"
  local path, body
  if math.random() < 0.5 then path, body = chat(stream, directive, options)
  else path, body = messages(stream, directive, options) end
  return wrk.format("POST", path, {["Authorization"] = "Bearer " .. key, ["Content-Type"] = "application/json"}, body)
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local total = {}
  for _, t in ipairs(threads) do
    local s = t:get("statuses")
    for k, v in pairs(s) do total[k] = (total[k] or 0) + v end
  end
  local keys = {}
  for k in pairs(total) do table.insert(keys, k) end
  table.sort(keys)
  io.write("statuses:")
  for _, k in ipairs(keys) do io.write(string.format(" %d=%d", k, total[k])) end
  io.write("\n")
  io.write(string.format("latency p50=%.1fms p99=%.1fms max=%.1fms\n",
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
