-- wrk script for bench/run: the method and body come from the environment
-- (BENCH_METHOD, BENCH_BODY = path of a JSON file); done() prints one machine-readable line.
local method = os.getenv("BENCH_METHOD") or "GET"
local body_path = os.getenv("BENCH_BODY")
wrk.method = method
if body_path and body_path ~= "" then
  local file = assert(io.open(body_path, "rb"))
  wrk.body = file:read("*a")
  file:close()
  wrk.headers["Content-Type"] = "application/json"
end

-- BENCH_UNIQUE=1: every "__UNIQUE__" marker of the body becomes a value of its own in every
-- request (thread number and counter): no two requests carry the same scene, or touch id.
if os.getenv("BENCH_UNIQUE") == "1" and wrk.body then
  local template = wrk.body
  assert(template:find("__UNIQUE__", 1, true), "BENCH_UNIQUE needs a body with __UNIQUE__")
  local counter = 0
  request = function()
    counter = counter + 1
    local value = tostring(thread_number or 0) .. "-" .. counter
    return wrk.format(nil, nil, nil, (template:gsub("__UNIQUE__", value)))
  end
end

local threads_started = 0
setup = function(thread)
  threads_started = threads_started + 1
  thread:set("thread_number", threads_started)
end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH {"requests":%d,"duration_us":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d,' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(90),
    latency:percentile(99), latency.max, e.connect, e.read, e.write, e.status, e.timeout))
end
