-- wrk script for edgemt-server: POST /translate with one sentence per request, chosen at
-- random (fixed seed per thread) from SENTENCES (a file of one sentence per line, the
-- environment variable EDGEMT_WRK_SENTENCES), JSON body as LibreTranslate clients send it.
-- done() prints one machine-readable line for bench/server/load.py.
local sentences = {}

local function json_string(s)
  s = s:gsub('\\', '\\\\'):gsub('"', '\\"'):gsub('\t', '\\t')
  return '"' .. s .. '"'
end

init = function(args)
  local path = os.getenv("EDGEMT_WRK_SENTENCES")
  for line in io.lines(path) do
    if line:match("%S") then sentences[#sentences + 1] = line end
  end
  math.randomseed(12345 + #args)
end

request = function()
  local s = sentences[math.random(#sentences)]
  local body = '{"q":' .. json_string(s) .. ',"source":"en","target":"de"}'
  return wrk.format("POST", "/translate", {["Content-Type"] = "application/json"}, body)
end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT requests=%d duration_us=%d p50_us=%d p90_us=%d p99_us=%d non2xx=%d "
                         .. "connect=%d read=%d write=%d timeout=%d\n",
                         summary.requests, summary.duration, latency:percentile(50), latency:percentile(90),
                         latency:percentile(99), e.status, e.connect, e.read, e.write, e.timeout))
end
