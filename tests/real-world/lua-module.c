/* A Lua C module, loaded by `require` (dlopen) from the interpreter that
   exports its API (-Wl,-E): every call below goes back into the
   interpreter's code, wherever an install laid it out. Built as a shared
   library by the same compiler as the interpreter. */
#include <lauxlib.h>
#include <lua.h>

/* fold(t, f, acc): acc = f(acc, v) for each v of the array t. */
static int fold(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_Integer n = luaL_len(L, 1);
  lua_pushvalue(L, 3);
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_pushvalue(L, 2);
    lua_insert(L, -2);
    lua_geti(L, 1, i);
    lua_call(L, 2, 1);
  }
  return 1;
}

/* checksum(s): a string's bytes mixed, as an integer. */
static int checksum(lua_State *L) {
  size_t len;
  const char *s = luaL_checklstring(L, 1, &len);
  lua_Unsigned h = 14695981039346656037u;
  for (size_t i = 0; i < len; ++i)
    h = (h ^ (unsigned char)s[i]) * 1099511628211u;
  lua_pushinteger(L, (lua_Integer)(h >> 1));
  return 1;
}

/* fail(msg): raises an error through the interpreter's longjmp. */
static int fail(lua_State *L) {
  return luaL_error(L, "module error: %s", luaL_checkstring(L, 1));
}

int luaopen_divccmod(lua_State *L) {
  static const luaL_Reg functions[] = {
      {"fold", fold}, {"checksum", checksum}, {"fail", fail}, {NULL, NULL}};
  luaL_newlib(L, functions);
  return 1;
}
