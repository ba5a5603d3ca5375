-- What tests/divtest/projects.py's Lua recipe runs on every build and
-- install: the interpreter's dispatch loop on every kind of instruction,
-- coroutines (resume, yield, wrap, errors across them), closures, string
-- patterns and formatting, tables, metatables, errors, integer and float
-- arithmetic, goto, and a C module loaded with require that calls back
-- into the interpreter's exported API. Its output must equal clang-19's
-- build's byte for byte.

local function section(name) print("== " .. name) end

section("coroutines")
local gen = coroutine.wrap(function(a)
  for i = 1, 5 do a = coroutine.yield(a * i) end
  return "done"
end)
print(gen(1), gen(2), gen(3), gen(4), gen(5), gen(6))
local co = coroutine.create(function() error("inside") end)
local resumed, message = coroutine.resume(co)
print(resumed, (message:gsub("^.-:%d+: ", "")))
print(coroutine.status(co))
local producer = coroutine.create(function()
  for i = 1, 1000 do coroutine.yield(i) end
end)
local sum = 0
while true do
  local ok, v = coroutine.resume(producer)
  if not v then break end
  sum = sum + v
end
print(sum, coroutine.isyieldable())
print(pcall(coroutine.wrap(function() coroutine.yield(1); error({code = 3}) end)))

section("closures and recursion")
local function counter()
  local n = 0
  return function() n = n + 1; return n end
end
local c1, c2 = counter(), counter()
c1(); c1()
print(c1(), c2())
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
print(fib(24))
local function ackermann(m, n)
  if m == 0 then return n + 1 end
  if n == 0 then return ackermann(m - 1, 1) end
  return ackermann(m - 1, ackermann(m, n - 1))
end
print(ackermann(2, 300))

section("tables")
local t = {}
for i = 1, 2000 do t[i] = (i * 7919) % 2003 end
table.sort(t)
print(t[1], t[1000], t[2000], #t)
table.sort(t, function(a, b) return a > b end)
print(t[1], t[1000], t[2000])
print(table.concat({1, 2, 3, "x", 4.5}, ","))
local packed = table.pack(1, nil, 3)
print(packed.n, table.unpack({1, 2, 3}, 2))
local words = {}
for w in ("the quick brown fox jumps over the lazy dog"):gmatch("%a+") do
  words[w] = (words[w] or 0) + 1
end
local keys = {}
for k in pairs(words) do keys[#keys + 1] = k end
table.sort(keys)
for _, k in ipairs(keys) do io.write(k, "=", words[k], " ") end
print()
table.insert(keys, 1, "first")
print(table.remove(keys), keys[1], #keys)

section("strings")
print(("hello world from lua"):gsub("(%w+)", "<%1>"))
print(string.format("%5.2f|%-5d|%x|%q|%s|%g", math.pi, 42, 255, "a\nb", nil, 1e300))
print(("abc"):rep(3, "-"), ("Lua"):upper(), ("x=1, y=22"):match("y=(%d+)"))
print(string.byte("ABC", 1, -1), string.char(72, 105))
print(("%d items"):format(12), #("\u{20AC}"), utf8.len("h\u{E4}\u{20AC}"))
print(string.pack("<i4 >i2 z", 100, 7, "s"):byte(1, -1))
print(string.unpack("<i4", string.pack("<i4", -5)))
print(("a,b,,c"):find(",,", 1, true), ("key = value"):match("^(%w+)%s*=%s*(%w+)$"))

section("numbers")
print(7 // 2, 7 % 3, -7 // 2, -7 % 3, 7 / 2, 2 ^ 10, 1 << 62, 0xff ~ 0x0f)
print(math.maxinteger + 1 == math.mininteger, math.type(1), math.type(1.0), math.type("1"))
print(math.floor(-3.5), math.ceil(-3.5), math.fmod(7, 3), math.abs(-2), math.max(3, 9, 1))
print(string.format("%.6f", math.sin(1) + math.cos(1) + math.sqrt(2) + math.log(10)))
print(tostring(1e15), tostring(2^53), 10 == 10.0, "10" + 1, 3 | 4)
local acc = 0
for i = 1, 200000 do acc = (acc + i * i) % 1000003 end
print(acc)

section("metatables")
local V = {}
V.__index = V
V.__add = function(a, b) return setmetatable({x = a.x + b.x, y = a.y + b.y}, V) end
V.__eq = function(a, b) return a.x == b.x and a.y == b.y end
V.__tostring = function(v) return "(" .. v.x .. "," .. v.y .. ")" end
V.__len = function() return 2 end
V.__call = function(v, k) return v.x * k end
function V.new(x, y) return setmetatable({x = x, y = y}, V) end
local a, b = V.new(1, 2), V.new(3, 4)
print(tostring(a + b), a + b == V.new(4, 6), #a, a(10))
local proxy = setmetatable({}, {__index = function(_, k) return k .. "!" end,
                                __newindex = function(t, k, v) rawset(t, k, v * 2) end})
proxy.z = 5
print(proxy.anything, proxy.z)

section("errors")
print(pcall(error, "plain"))
local caught, object = pcall(error, {code = 7})
print(caught, type(object), object.code)
print(select("#", pcall(function() return 1, 2, 3 end)))
print(xpcall(function() local x = nil; return x.field end,
             function(m) return "handled: " .. tostring(m):gsub("^.-:%d+: ", "") end))
local ok, e = pcall(function() return 1 + {} end)
print(ok, (e:gsub("^.-:%d+: ", "")))

section("goto")
local n = 0
for i = 1, 10 do
  for j = 1, 10 do
    if j > i then goto continue end
    n = n + 1
    ::continue::
  end
end
print(n)

section("load")
local chunk = load("local a, b = ... return a * b + 1")
print(chunk(6, 7))
local dumped = load(string.dump(function(x) return x .. "!" end))
print(dumped("dumped"))

section("module")
local m = require("divccmod")
print(m.fold({1, 2, 3, 4, 5}, function(acc, v) return acc + v * v end, 0))
print(m.fold({"a", "b", "c"}, function(acc, v) return acc .. v end, ">"))
print(m.checksum("divcc"), m.checksum(("x"):rep(1000)))
print(pcall(m.fail, "from C"))
print(m.fold({1, 2, 3}, function(acc, v)
  return acc + coroutine.wrap(function() coroutine.yield(v * 10) end)()
end, 0))

section("gc")
local weak = setmetatable({}, {__mode = "k"})
do local key = {}; weak[key] = true end
collectgarbage()
collectgarbage()
local count = 0
for _ in pairs(weak) do count = count + 1 end
print(count, collectgarbage("isrunning"))
print("end")
