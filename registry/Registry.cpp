//===- Registry.cpp - The record of a population of variants --------------===//

#include "registry/Registry.h"

#include "registry/Fingerprints.h"
#include "support/Diagnostics.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

#include <nlohmann/json.hpp>
#include <openssl/crypto.h>
#include <sqlite3.h>

#include <algorithm>
#include <ctime>

using namespace llvm;

namespace divcc {

static const char RegistryFormat[] = "divtool population registry";
// Version 2 added variants.debug_info, version 3 variants.golden_code_sha256
// (installs). An older registry is read as one without kept debug
// information or installs, and upgraded when written.
static constexpr unsigned SchemaVersion = 3;

Key256 variantSeed(const MasterKey &Key, StringRef Id) {
  return Key.streamKey({"population", "variant", Id});
}

std::string variantSeedDerivation(StringRef Id) {
  return ("HKDF-SHA256 stream key ('population','variant','" + Id +
          "') of the master secret")
      .str();
}

std::string installRecordId(StringRef InstallId, StringRef GoldenCodeSha256) {
  return (InstallId + "@" + GoldenCodeSha256.take_front(12)).str();
}

std::string populationKeyId(const MasterKey &Key) {
  Key256 K = Key.streamKey({"population", "key-id", ""});
  std::string Id = toHex(ArrayRef<uint8_t>(K).take_front(8), true);
  OPENSSL_cleanse(K.data(), K.size());
  return Id;
}

static std::string utcNow() {
  std::time_t Now = std::time(nullptr);
  std::tm Tm;
  gmtime_r(&Now, &Tm);
  char Buffer[32];
  std::strftime(Buffer, sizeof(Buffer), "%Y-%m-%dT%H:%M:%SZ", &Tm);
  return Buffer;
}

namespace {

/// A prepared statement, finalized on destruction.
class Statement {
public:
  Statement(sqlite3 *Db, StringRef Sql) : Db(Db) {
    Rc = sqlite3_prepare_v2(Db, Sql.data(), Sql.size(), &S, nullptr);
  }
  ~Statement() { sqlite3_finalize(S); }
  bool ok() const {
    return Rc == SQLITE_OK || Rc == SQLITE_ROW || Rc == SQLITE_DONE;
  }
  int rc() const { return Rc; }

  Statement &bind(int I, StringRef V) {
    if (ok())
      Rc = sqlite3_bind_text(S, I, V.data(), V.size(), SQLITE_TRANSIENT);
    return *this;
  }
  Statement &bind(int I, int64_t V) {
    if (ok())
      Rc = sqlite3_bind_int64(S, I, V);
    return *this;
  }
  Statement &bindNull(int I) {
    if (ok())
      Rc = sqlite3_bind_null(S, I);
    return *this;
  }
  /// Steps once: true while there is a row. Check ok() afterwards.
  bool step() {
    if (!ok())
      return false;
    Rc = sqlite3_step(S);
    return Rc == SQLITE_ROW;
  }
  void reset() {
    sqlite3_reset(S);
    sqlite3_clear_bindings(S);
    Rc = SQLITE_OK;
  }
  std::string text(int I) const {
    const unsigned char *T = sqlite3_column_text(S, I);
    return T ? std::string(reinterpret_cast<const char *>(T),
                           sqlite3_column_bytes(S, I))
             : std::string();
  }
  int64_t integer(int I) const { return sqlite3_column_int64(S, I); }
  bool isNull(int I) const { return sqlite3_column_type(S, I) == SQLITE_NULL; }

private:
  sqlite3 *Db;
  sqlite3_stmt *S = nullptr;
  int Rc;
};

/// BEGIN IMMEDIATE ... COMMIT; rolled back unless committed.
class Transaction {
public:
  explicit Transaction(sqlite3 *Db) : Db(Db) {}
  int begin() {
    return sqlite3_exec(Db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr);
  }
  int commit() {
    int Rc = sqlite3_exec(Db, "COMMIT", nullptr, nullptr, nullptr);
    Done = Rc == SQLITE_OK;
    return Rc;
  }
  ~Transaction() {
    if (!Done)
      sqlite3_exec(Db, "ROLLBACK", nullptr, nullptr, nullptr);
  }

private:
  sqlite3 *Db;
  bool Done = false;
};

} // namespace

Error Registry::fail(const Twine &What) {
  int Rc = Db ? sqlite3_extended_errcode(Db) : SQLITE_CANTOPEN;
  std::string Message = Db ? sqlite3_errmsg(Db) : "cannot open";
  switch (Rc & 0xff) {
  case SQLITE_NOTADB:
    return makeError("'" + Path + "' is not a divtool registry: " + Message);
  case SQLITE_CORRUPT:
    return makeError("registry '" + Path + "' is corrupt (" + Message +
                     "); restore it from a backup");
  case SQLITE_READONLY:
    return makeError("registry '" + Path + "' cannot be written (" + Message +
                     ")");
  default:
    return makeError("registry '" + Path + "': " + What + ": " + Message);
  }
}

Error Registry::exec(StringRef Sql) {
  if (sqlite3_exec(Db, Sql.str().c_str(), nullptr, nullptr, nullptr) !=
      SQLITE_OK)
    return fail("cannot run '" + Sql.split(' ').first + "'");
  return Error::success();
}

Registry::Registry(Registry &&Other)
    : Path(std::move(Other.Path)), Db(Other.Db), Schema(Other.Schema) {
  Other.Db = nullptr;
}

Registry::~Registry() { sqlite3_close(Db); }

static Error openDatabase(StringRef Path, int Flags, sqlite3 *&Db) {
  int Rc = sqlite3_open_v2(Path.str().c_str(), &Db, Flags, nullptr);
  if (Rc != SQLITE_OK)
    return makeError("cannot open registry '" + Path +
                     "': " + (Db ? sqlite3_errmsg(Db) : sqlite3_errstr(Rc)));
  sqlite3_extended_result_codes(Db, 1);
  // Another divtool may be writing: wait for it rather than fail.
  sqlite3_busy_timeout(Db, 30000);
  return Error::success();
}

Expected<Registry> Registry::open(StringRef Path, StringRef KeyId, bool Write) {
  sys::fs::file_status Status;
  if (std::error_code EC = sys::fs::status(Path, Status)) {
    if (EC == std::errc::no_such_file_or_directory)
      return makeError("registry '" + Path +
                       "' does not exist (divtool population creates "
                       "it; --registry names another)");
    return makeError("cannot open registry '" + Path + "': " + EC.message());
  }
  if (!sys::fs::is_regular_file(Status))
    return makeError("registry '" + Path + "' is not a file");
  Registry R(Path.str());
  if (Error E = openDatabase(
          Path, Write ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY, R.Db))
    return E;
  if (Error E = R.check(KeyId))
    return E;
  if (R.Schema < SchemaVersion && Write) {
    Transaction T(R.Db);
    if (T.begin() != SQLITE_OK)
      return R.fail("cannot start a transaction");
    std::string Upgrade;
    if (R.Schema < 2)
      Upgrade += "ALTER TABLE variants ADD COLUMN debug_info TEXT NOT NULL "
                 "DEFAULT '';";
    Upgrade += "ALTER TABLE variants ADD COLUMN golden_code_sha256 TEXT NOT "
               "NULL DEFAULT '';"
               "UPDATE meta SET value = '" +
               std::to_string(SchemaVersion) +
               "' WHERE key = 'schema_version';";
    if (Error E = R.exec(Upgrade))
      return E;
    if (T.commit() != SQLITE_OK)
      return R.fail("cannot upgrade it to schema version " +
                    Twine(SchemaVersion));
    R.Schema = SchemaVersion;
  }
  return R;
}

Expected<Registry> Registry::openOrCreate(StringRef Path, StringRef KeyId) {
  if (sys::fs::exists(Path))
    return open(Path, KeyId, /*Write=*/true);
  Registry R(Path.str());
  if (Error E = openDatabase(Path,
                             SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                                 SQLITE_OPEN_EXCLUSIVE,
                             R.Db))
    return E;
  if (Error E = R.create(KeyId)) {
    sqlite3_close(R.Db);
    R.Db = nullptr;
    sys::fs::remove(Path);
    return E;
  }
  return R;
}

Error Registry::check(StringRef KeyId) {
  // The integrity check reads every page: a damaged file is refused here,
  // before anything is read from it or written to it.
  {
    Statement Check(Db, "PRAGMA quick_check");
    if (!Check.step() && !Check.ok())
      return fail("cannot read it");
    std::string Result = Check.text(0);
    std::replace(Result.begin(), Result.end(), '\n', ' ');
    if (Result != "ok")
      return makeError("registry '" + Path + "' is corrupt (integrity check: " +
                       Result + "); restore it from a backup");
  }
  Statement Tables(Db, "SELECT count(*) FROM sqlite_master WHERE type = "
                       "'table' AND name IN ('meta', 'variants', "
                       "'artifacts', 'fingerprints')");
  if (!Tables.step())
    return fail("cannot read its tables");
  if (Tables.integer(0) != 4)
    return makeError("'" + Path +
                     "' is not a divtool registry (an SQLite database "
                     "without the registry's tables)");

  std::map<std::string, std::string> Meta;
  Statement Read(Db, "SELECT key, value FROM meta");
  while (Read.step())
    Meta[Read.text(0)] = Read.text(1);
  if (!Read.ok())
    return fail("cannot read its meta table");
  if (Meta["format"] != RegistryFormat)
    return makeError("'" + Path +
                     "' is not a divtool registry (its "
                     "meta table names no registry format)");
  if (StringRef(Meta["schema_version"]).getAsInteger(10, Schema) ||
      Schema < 1 || Schema > SchemaVersion)
    return makeError("registry '" + Path + "' has schema version '" +
                     Meta["schema_version"] +
                     "'; this divtool reads versions 1 to " +
                     Twine(SchemaVersion));
  if (Meta["window_bytes"] != std::to_string(FingerprintWindowBytes) ||
      Meta["winnow_window"] != std::to_string(FingerprintWinnowWindow))
    return makeError("registry '" + Path +
                     "' holds fingerprints of another kind than this "
                     "divtool computes");
  if (Meta["key_id"] != KeyId)
    return makeError("registry '" + Path +
                     "' belongs to another master secret (its key "
                     "id is " +
                     Meta["key_id"] + ", the seed file's is " + KeyId +
                     "): wrong seed file?");
  return Error::success();
}

Error Registry::create(StringRef KeyId) {
  Transaction T(Db);
  if (T.begin() != SQLITE_OK)
    return fail("cannot start a transaction");
  const char *Tables = R"sql(
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE variants (
      id TEXT PRIMARY KEY,
      number INTEGER NOT NULL UNIQUE,
      label TEXT NOT NULL DEFAULT '',
      status TEXT NOT NULL CHECK (status IN ('building', 'built', 'failed')),
      exit_status INTEGER,
      seed_derivation TEXT NOT NULL,
      compiler TEXT NOT NULL,
      build_command TEXT NOT NULL,
      source_dir TEXT NOT NULL,
      tree TEXT NOT NULL,
      created TEXT NOT NULL,
      debug_info TEXT NOT NULL DEFAULT '',
      golden_code_sha256 TEXT NOT NULL DEFAULT '');
    CREATE TABLE artifacts (
      id INTEGER PRIMARY KEY,
      variant TEXT NOT NULL REFERENCES variants(id),
      path TEXT NOT NULL,
      size INTEGER NOT NULL,
      sha256 TEXT NOT NULL,
      code_sha256 TEXT,
      stripped_sha256 TEXT,
      UNIQUE (variant, path));
    CREATE INDEX artifacts_sha256 ON artifacts(sha256);
    CREATE INDEX artifacts_code_sha256 ON artifacts(code_sha256);
    CREATE INDEX artifacts_stripped_sha256 ON artifacts(stripped_sha256);
    CREATE TABLE fingerprints (
      hash INTEGER NOT NULL,
      artifact INTEGER NOT NULL REFERENCES artifacts(id),
      PRIMARY KEY (hash, artifact)) WITHOUT ROWID;
  )sql";
  if (Error E = exec(Tables))
    return E;
  Statement Insert(Db, "INSERT INTO meta (key, value) VALUES (?, ?)");
  std::pair<std::string, std::string> Rows[] = {
      {"format", RegistryFormat},
      {"schema_version", std::to_string(SchemaVersion)},
      {"key_id", KeyId.str()},
      {"window_bytes", std::to_string(FingerprintWindowBytes)},
      {"winnow_window", std::to_string(FingerprintWinnowWindow)},
      {"created", utcNow()}};
  for (const auto &[Key, Value] : Rows) {
    Insert.bind(1, Key).bind(2, Value);
    Insert.step();
    if (!Insert.ok())
      return fail("cannot write its meta table");
    Insert.reset();
  }
  if (T.commit() != SQLITE_OK)
    return fail("cannot create it");
  Schema = SchemaVersion;
  return Error::success();
}

Expected<std::vector<VariantRecord>> Registry::reserveVariants(
    const VariantRecord &Template, ArrayRef<std::string> Labels,
    const std::function<std::string(StringRef)> &TreeFor) {
  Transaction T(Db);
  if (T.begin() != SQLITE_OK)
    return fail("cannot start a transaction");
  // Installs are numbered below zero (recordInstall).
  Statement Max(Db, "SELECT COALESCE(MAX(number), 0) FROM variants "
                    "WHERE number > 0");
  if (!Max.step())
    return fail("cannot read its variants");
  int64_t Next = Max.integer(0) + 1;
  nlohmann::json Command = Template.BuildCommand;
  Statement Insert(
      Db, "INSERT INTO variants (id, number, label, status, seed_derivation, "
          "compiler, build_command, source_dir, tree, created, debug_info) "
          "VALUES (?, ?, ?, 'building', ?, ?, ?, ?, ?, ?, ?)");
  std::vector<VariantRecord> Reserved;
  for (const std::string &Label : Labels) {
    VariantRecord V = Template;
    V.Number = Next++;
    V.Id = formatv("v{0:d4}", V.Number).str();
    V.Label = Label;
    V.Status = "building";
    V.SeedDerivation = variantSeedDerivation(V.Id);
    V.Tree = TreeFor(V.Id);
    V.Created = utcNow();
    Insert.bind(1, V.Id)
        .bind(2, V.Number)
        .bind(3, V.Label)
        .bind(4, V.SeedDerivation)
        .bind(5, V.Compiler)
        .bind(6, Command.dump())
        .bind(7, V.SourceDir)
        .bind(8, V.Tree)
        .bind(9, V.Created)
        .bind(10, StringRef(V.KeptDebugInfo ? "kept" : ""));
    Insert.step();
    if (!Insert.ok())
      return fail("cannot record variant " + V.Id);
    Insert.reset();
    Reserved.push_back(std::move(V));
  }
  if (T.commit() != SQLITE_OK)
    return fail("cannot record the new variants");
  return Reserved;
}

Error Registry::recordBuilt(StringRef Id, ArrayRef<ArtifactRecord> Artifacts) {
  Transaction T(Db);
  if (T.begin() != SQLITE_OK)
    return fail("cannot start a transaction");
  Statement Update(Db, "UPDATE variants SET status = 'built', exit_status = 0 "
                       "WHERE id = ?");
  Update.bind(1, Id).step();
  if (!Update.ok())
    return fail("cannot record variant " + Id);
  if (Error E = insertArtifacts(Id, Artifacts))
    return E;
  if (T.commit() != SQLITE_OK)
    return fail("cannot record variant " + Id);
  return Error::success();
}

Error Registry::recordInstall(const VariantRecord &Install,
                              const ArtifactRecord &Artifact) {
  Transaction T(Db);
  if (T.begin() != SQLITE_OK)
    return fail("cannot start a transaction");
  Statement Min(Db, "SELECT COALESCE(MIN(number), 0) FROM variants "
                    "WHERE number < 0");
  if (!Min.step())
    return fail("cannot read its variants");
  nlohmann::json Command = Install.BuildCommand;
  Statement Insert(
      Db, "INSERT INTO variants (id, number, label, status, exit_status, "
          "seed_derivation, compiler, build_command, source_dir, tree, "
          "created, golden_code_sha256) "
          "VALUES (?, ?, ?, 'built', 0, ?, ?, ?, ?, ?, ?, ?)");
  Insert.bind(1, Install.Id)
      .bind(2, Min.integer(0) - 1)
      .bind(3, Install.Label)
      .bind(4, Install.SeedDerivation)
      .bind(5, Install.Compiler)
      .bind(6, Command.dump())
      .bind(7, Install.SourceDir)
      .bind(8, Install.Tree)
      .bind(9, utcNow())
      .bind(10, Install.GoldenCodeSha256)
      .step();
  if (!Insert.ok())
    return fail("cannot record install " + Install.Id);
  if (Error E = insertArtifacts(Install.Id, Artifact))
    return E;
  if (T.commit() != SQLITE_OK)
    return fail("cannot record install " + Install.Id);
  return Error::success();
}

Error Registry::insertArtifacts(StringRef Id,
                                ArrayRef<ArtifactRecord> Artifacts) {
  Statement Insert(Db, "INSERT INTO artifacts (variant, path, size, sha256, "
                       "code_sha256, stripped_sha256) VALUES "
                       "(?, ?, ?, ?, ?, ?)");
  Statement Print(Db, "INSERT OR IGNORE INTO fingerprints (hash, artifact) "
                      "VALUES (?, ?)");
  for (const ArtifactRecord &A : Artifacts) {
    Insert.bind(1, Id)
        .bind(2, A.Path)
        .bind(3, int64_t(A.Size))
        .bind(4, A.Sha256);
    if (A.CodeSha256.empty())
      Insert.bindNull(5);
    else
      Insert.bind(5, A.CodeSha256);
    if (A.StrippedSha256.empty())
      Insert.bindNull(6);
    else
      Insert.bind(6, A.StrippedSha256);
    Insert.step();
    if (!Insert.ok())
      return fail("cannot record artifact '" + A.Path + "' of " + Id);
    Insert.reset();
    int64_t Row = sqlite3_last_insert_rowid(Db);
    for (uint64_t H : A.Fingerprints) {
      Print.bind(1, int64_t(H)).bind(2, Row).step();
      if (!Print.ok())
        return fail("cannot record the fingerprints of " + Id);
      Print.reset();
    }
  }
  return Error::success();
}

Error Registry::recordFailed(StringRef Id, int64_t ExitStatus) {
  Statement Update(Db, "UPDATE variants SET status = 'failed', exit_status = ? "
                       "WHERE id = ?");
  Update.bind(1, ExitStatus).bind(2, Id).step();
  if (!Update.ok())
    return fail("cannot record variant " + Id);
  return Error::success();
}

std::string Registry::variantColumns() const {
  return std::string("id, number, label, status, exit_status, "
                     "seed_derivation, compiler, build_command, source_dir, "
                     "tree, created, ") +
         (Schema >= 2 ? "debug_info, " : "'', ") +
         (Schema >= 3 ? "golden_code_sha256" : "''");
}

static VariantRecord readVariant(const Statement &S) {
  VariantRecord V;
  V.Id = S.text(0);
  V.Number = S.integer(1);
  V.Label = S.text(2);
  V.Status = S.text(3);
  if (!S.isNull(4))
    V.ExitStatus = S.integer(4);
  V.SeedDerivation = S.text(5);
  V.Compiler = S.text(6);
  nlohmann::json Command =
      nlohmann::json::parse(S.text(7), nullptr, /*allow_exceptions=*/false);
  if (Command.is_array())
    for (const auto &Arg : Command)
      if (Arg.is_string())
        V.BuildCommand.push_back(Arg.get<std::string>());
  V.SourceDir = S.text(8);
  V.Tree = S.text(9);
  V.Created = S.text(10);
  V.KeptDebugInfo = S.text(11) == "kept";
  V.GoldenCodeSha256 = S.text(12);
  return V;
}

Expected<std::vector<VariantRecord>> Registry::variants() {
  Statement S(
      Db, (Twine("SELECT ") + variantColumns() + " FROM variants ORDER BY number")
              .str());
  std::vector<VariantRecord> All;
  while (S.step())
    All.push_back(readVariant(S));
  if (!S.ok())
    return fail("cannot read its variants");
  return All;
}

Expected<VariantRecord> Registry::builtVariant(StringRef Id) {
  Statement S(
      Db, (Twine("SELECT ") + variantColumns() + " FROM variants WHERE id = ?")
              .str());
  S.bind(1, Id);
  if (S.step()) {
    VariantRecord V = readVariant(S);
    if (V.Status == "built")
      return V;
    if (V.Status == "failed")
      return makeError("variant '" + Id + "' in registry '" + Path +
                       "' failed to build (exit status " +
                       std::to_string(V.ExitStatus.value_or(-1)) +
                       "): it has no artifacts");
    return makeError("variant '" + Id + "' in registry '" + Path +
                     "' was never completed (its population run was "
                     "interrupted): it has no artifacts");
  }
  if (!S.ok())
    return fail("cannot read its variants");
  // An install is also named by its install id, when that is unambiguous.
  if (Schema >= 3) {
    Statement Installs(Db, "SELECT id FROM variants WHERE label = ? AND "
                           "golden_code_sha256 != '' ORDER BY number");
    Installs.bind(1, Id);
    std::vector<std::string> Found;
    while (Installs.step())
      Found.push_back(Installs.text(0));
    if (!Installs.ok())
      return fail("cannot read its installs");
    if (Found.size() == 1)
      return builtVariant(Found.front());
    if (Found.size() > 1)
      return makeError("install '" + Id + "' in registry '" + Path +
                       "' was laid out from " + Twine(Found.size()) +
                       " golden masters: name one of " + join(Found, ", "));
  }
  Statement Range(Db, "SELECT MIN(id), MAX(id), count(*) FROM variants "
                      "WHERE status = 'built' AND number > 0");
  std::string Known = "it has no built variant";
  if (Range.step() && Range.integer(2) > 0)
    Known = "it holds " + std::to_string(Range.integer(2)) +
            " built variants, " + Range.text(0) + " to " + Range.text(1);
  Statement Installs(Db, "SELECT count(*) FROM variants WHERE number < 0");
  if (Installs.step() && Installs.integer(0) > 0)
    Known += " and " + std::to_string(Installs.integer(0)) + " installs";
  return makeError("no variant or install '" + Id + "' in registry '" + Path +
                   "' (" + Known + ")");
}

static const char ArtifactColumns[] =
    "a.id, a.variant, a.path, a.size, a.sha256, COALESCE(a.code_sha256, ''), "
    "COALESCE(a.stripped_sha256, '')";

static ArtifactRecord readArtifact(const Statement &S) {
  ArtifactRecord A;
  A.RowId = S.integer(0);
  A.Variant = S.text(1);
  A.Path = S.text(2);
  A.Size = S.integer(3);
  A.Sha256 = S.text(4);
  A.CodeSha256 = S.text(5);
  A.StrippedSha256 = S.text(6);
  return A;
}

Expected<std::vector<ArtifactRecord>>
Registry::selectArtifacts(StringRef FromWhere, StringRef Value) {
  Statement S(Db, (Twine("SELECT ") + ArtifactColumns + " " + FromWhere).str());
  S.bind(1, Value);
  std::vector<ArtifactRecord> All;
  while (S.step())
    All.push_back(readArtifact(S));
  if (!S.ok())
    return fail("cannot read its artifacts");
  return All;
}

Expected<std::vector<ArtifactRecord>> Registry::artifacts(StringRef Id) {
  return selectArtifacts("FROM artifacts a WHERE a.variant = ? ORDER BY a.path",
                         Id);
}

Expected<std::vector<ArtifactRecord>>
Registry::artifactsWithHash(StringRef Hex) {
  return selectArtifacts("FROM artifacts a JOIN variants v ON v.id = a.variant "
                         "WHERE v.status = 'built' AND (a.sha256 = ?1 OR "
                         "a.stripped_sha256 = ?1 OR a.code_sha256 = ?1) "
                         "ORDER BY v.number, a.path",
                         Hex);
}

Expected<Registry::FingerprintCounts>
Registry::countFingerprints(ArrayRef<uint64_t> Hashes) {
  FingerprintCounts Counts;
  Statement S(Db, "SELECT DISTINCT a.variant FROM fingerprints f "
                  "JOIN artifacts a ON a.id = f.artifact "
                  "JOIN variants v ON v.id = a.variant "
                  "WHERE f.hash = ? AND v.status = 'built'");
  std::vector<std::string> Holders;
  for (uint64_t H : Hashes) {
    Holders.clear();
    S.bind(1, int64_t(H));
    while (S.step())
      Holders.push_back(S.text(0));
    if (!S.ok())
      return fail("cannot read its fingerprints");
    S.reset();
    if (Holders.empty())
      continue;
    ++Counts.Found;
    for (const std::string &V : Holders)
      ++Counts.Held[V];
    if (Holders.size() == 1)
      ++Counts.HeldAlone[Holders[0]];
  }
  return Counts;
}

} // namespace divcc
