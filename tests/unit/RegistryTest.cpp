//===- RegistryTest.cpp - The record of a population of variants ----------===//
//
// registry/Registry.h in a temporary directory: creating a registry,
// reserving and recording variants and installs, reading them back, a
// write that fails halfway leaving nothing of itself, and files that are
// not the registry asked for refused with an error naming them.
//
//===----------------------------------------------------------------------===//

#include "TempDir.h"

#include "registry/Registry.h"

#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

using namespace divcc;
using namespace llvm;

namespace {

MasterKey keyOf(StringRef Secret) {
  return MasterKey::fromSecret(arrayRefFromStringRef(Secret));
}

/// A registry with \p N variants reserved, labelled "c1", "c2"...
struct Fixture {
  TempDir D;
  std::string Path = D.file("registry.sqlite");
  std::string KeyId = populationKeyId(keyOf("master secret"));

  Registry create() {
    Expected<Registry> R = Registry::openOrCreate(Path, KeyId);
    EXPECT_TRUE(bool(R)) << toString(R.takeError());
    return std::move(*R);
  }
  std::vector<VariantRecord> reserve(Registry &R, unsigned N) {
    VariantRecord Template;
    Template.Compiler = "divcc test";
    Template.BuildCommand = {"make", "CC=divcc"};
    Template.SourceDir = "/src";
    std::vector<std::string> Labels;
    for (unsigned I = 1; I <= N; ++I)
      Labels.push_back("c" + utostr(I));
    Expected<std::vector<VariantRecord>> V = R.reserveVariants(
        Template, Labels, [](StringRef Id) { return ("/pop/" + Id).str(); });
    EXPECT_TRUE(bool(V)) << toString(V.takeError());
    return V ? std::move(*V) : std::vector<VariantRecord>();
  }
};

ArtifactRecord artifact(StringRef Path, StringRef Sha) {
  ArtifactRecord A;
  A.Path = Path.str();
  A.Size = 42;
  A.Sha256 = Sha.str();
  A.CodeSha256 = ("code-" + Sha).str();
  A.Fingerprints = {1, 2, 3};
  return A;
}

TEST(RegistryTest, ReservesNumbersInOrder) {
  Fixture F;
  Registry R = F.create();
  std::vector<VariantRecord> First = F.reserve(R, 2);
  ASSERT_EQ(First.size(), 2u);
  EXPECT_EQ(First[0].Id, "v0001");
  EXPECT_EQ(First[1].Id, "v0002");
  EXPECT_EQ(First[1].Label, "c2");
  EXPECT_EQ(First[0].Tree, "/pop/v0001");
  EXPECT_EQ(First[0].Status, "building");
  // A second run continues the numbering.
  std::vector<VariantRecord> Second = F.reserve(R, 1);
  ASSERT_EQ(Second.size(), 1u);
  EXPECT_EQ(Second[0].Id, "v0003");
}

TEST(RegistryTest, RecordsAndReadsBack) {
  Fixture F;
  {
    Registry R = F.create();
    F.reserve(R, 3);
    ASSERT_FALSE(bool(R.recordBuilt("v0001", {artifact("app", "aa")})));
    ASSERT_FALSE(bool(R.recordBuilt("v0002", {artifact("app", "bb")})));
    ASSERT_FALSE(bool(R.recordFailed("v0003", 2)));
  }
  // Reopened for reading, by the same key.
  Expected<Registry> R = Registry::open(F.Path, F.KeyId, /*Write=*/false);
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  Expected<std::vector<VariantRecord>> All = R->variants();
  ASSERT_TRUE(bool(All)) << toString(All.takeError());
  ASSERT_EQ(All->size(), 3u);
  EXPECT_EQ((*All)[0].Status, "built");
  EXPECT_EQ((*All)[2].Status, "failed");
  EXPECT_EQ((*All)[2].ExitStatus, std::optional<int64_t>(2));
  EXPECT_EQ((*All)[1].BuildCommand,
            (std::vector<std::string>{"make", "CC=divcc"}));

  Expected<VariantRecord> V = R->builtVariant("v0002");
  ASSERT_TRUE(bool(V)) << toString(V.takeError());
  EXPECT_EQ(V->Label, "c2");
  Expected<std::vector<ArtifactRecord>> A = R->artifacts("v0002");
  ASSERT_TRUE(bool(A)) << toString(A.takeError());
  ASSERT_EQ(A->size(), 1u);
  EXPECT_EQ((*A)[0].Sha256, "bb");
  EXPECT_EQ((*A)[0].Size, 42u);

  // By any of its hashes.
  Expected<std::vector<ArtifactRecord>> ByCode =
      R->artifactsWithHash("code-aa");
  ASSERT_TRUE(bool(ByCode)) << toString(ByCode.takeError());
  ASSERT_EQ(ByCode->size(), 1u);
  EXPECT_EQ((*ByCode)[0].Variant, "v0001");
  Expected<std::vector<ArtifactRecord>> None = R->artifactsWithHash("cc");
  ASSERT_TRUE(bool(None));
  EXPECT_TRUE(None->empty());

  // Fingerprints 1, 2, 3 are in both built variants, 9 in none.
  Expected<Registry::FingerprintCounts> Counts =
      R->countFingerprints({1, 2, 9});
  ASSERT_TRUE(bool(Counts)) << toString(Counts.takeError());
  EXPECT_EQ(Counts->Found, 2u);
  EXPECT_EQ(Counts->Held["v0001"], 2u);
  EXPECT_EQ(Counts->Held["v0002"], 2u);
  EXPECT_TRUE(Counts->HeldAlone.empty());

  // A failed variant has no artifacts to offer.
  Expected<VariantRecord> Failed = R->builtVariant("v0003");
  ASSERT_FALSE(bool(Failed));
  EXPECT_NE(toString(Failed.takeError()).find("failed to build"),
            std::string::npos);
}

VariantRecord install(StringRef Id, StringRef GoldenCode) {
  VariantRecord I;
  I.Id = installRecordId(Id, GoldenCode);
  I.Label = Id.str();
  I.GoldenCodeSha256 = GoldenCode.str();
  I.SeedDerivation = "test";
  I.Compiler = "llvm-bolt test";
  I.BuildCommand = {"divtool", "rerandomize", "--install", Id.str()};
  I.SourceDir = "/golden";
  I.Tree = "/usr/bin";
  return I;
}

TEST(RegistryTest, InstallsBesideVariants) {
  Fixture F;
  Registry R = F.create();
  F.reserve(R, 1);
  ASSERT_FALSE(bool(R.recordBuilt("v0001", {artifact("app", "v1")})));
  std::string Golden1(64, 'a'), Golden2(64, 'b');
  ASSERT_FALSE(
      bool(R.recordInstall(install("host-1", Golden1), artifact("app", "i1"))));
  ASSERT_FALSE(
      bool(R.recordInstall(install("host-2", Golden1), artifact("app", "i2"))));
  // The same install id again, with another golden master: another row.
  ASSERT_FALSE(
      bool(R.recordInstall(install("host-1", Golden2), artifact("app", "i3"))));
  // The same row twice is refused, and leaves nothing of itself.
  EXPECT_TRUE(
      bool(R.recordInstall(install("host-2", Golden1), artifact("app", "i4"))));
  EXPECT_TRUE(R.artifactsWithHash("i4")->empty());

  // Installs take no variant number.
  std::vector<VariantRecord> Next = F.reserve(R, 1);
  ASSERT_EQ(Next.size(), 1u);
  EXPECT_EQ(Next[0].Id, "v0002");

  Expected<VariantRecord> One = R.builtVariant("host-2");
  ASSERT_TRUE(bool(One)) << toString(One.takeError());
  EXPECT_EQ(One->Id, "host-2@aaaaaaaaaaaa");
  EXPECT_TRUE(One->isInstall());
  EXPECT_EQ(One->GoldenCodeSha256, Golden1);
  EXPECT_EQ(One->Status, "built");
  // host-1 of two golden masters: the rows are named, newest first.
  Expected<VariantRecord> Ambiguous = R.builtVariant("host-1");
  ASSERT_FALSE(bool(Ambiguous));
  EXPECT_NE(toString(Ambiguous.takeError())
                .find("2 golden masters: name one of host-1@bbbbbbbbbbbb, "
                      "host-1@aaaaaaaaaaaa"),
            std::string::npos);
  Expected<VariantRecord> Named = R.builtVariant("host-1@bbbbbbbbbbbb");
  ASSERT_TRUE(bool(Named)) << toString(Named.takeError());
  EXPECT_EQ(Named->GoldenCodeSha256, Golden2);

  Expected<std::vector<ArtifactRecord>> ByCode = R.artifactsWithHash("code-i2");
  ASSERT_TRUE(bool(ByCode));
  ASSERT_EQ(ByCode->size(), 1u);
  EXPECT_EQ((*ByCode)[0].Variant, "host-2@aaaaaaaaaaaa");
  Expected<VariantRecord> Variant = R.builtVariant("v0001");
  ASSERT_TRUE(bool(Variant));
  EXPECT_FALSE(Variant->isInstall());
}

/// Runs \p Sql on the SQLite file \p Path.
void runSql(const std::string &Path, const char *Sql) {
  sqlite3 *Db = nullptr;
  ASSERT_EQ(sqlite3_open(Path.c_str(), &Db), SQLITE_OK);
  EXPECT_EQ(sqlite3_exec(Db, Sql, nullptr, nullptr, nullptr), SQLITE_OK)
      << sqlite3_errmsg(Db);
  sqlite3_close(Db);
}

TEST(RegistryTest, SchemaVersion2IsReadAndUpgraded) {
  Fixture F;
  {
    Registry R = F.create();
    F.reserve(R, 1);
    ASSERT_FALSE(bool(R.recordBuilt("v0001", {artifact("app", "v1")})));
  }
  // What a registry written before installs looks like.
  runSql(F.Path, "ALTER TABLE variants DROP COLUMN golden_code_sha256;"
                 "UPDATE meta SET value = '2' WHERE key = 'schema_version';");
  {
    Expected<Registry> R = Registry::open(F.Path, F.KeyId, /*Write=*/false);
    ASSERT_TRUE(bool(R)) << toString(R.takeError());
    Expected<VariantRecord> V = R->builtVariant("v0001");
    ASSERT_TRUE(bool(V)) << toString(V.takeError());
    EXPECT_FALSE(V->isInstall());
  }
  Expected<Registry> R = Registry::open(F.Path, F.KeyId, /*Write=*/true);
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  ASSERT_FALSE(bool(R->recordInstall(install("host-1", std::string(64, 'c')),
                                     artifact("app", "i1"))));
  Expected<VariantRecord> I = R->builtVariant("host-1");
  ASSERT_TRUE(bool(I)) << toString(I.takeError());
  EXPECT_TRUE(I->isInstall());
  Expected<VariantRecord> V = R->builtVariant("v0001");
  ASSERT_TRUE(bool(V)) << toString(V.takeError());
  EXPECT_FALSE(V->isInstall());
}

TEST(RegistryTest, AFailedWriteLeavesNothing) {
  Fixture F;
  Registry R = F.create();
  F.reserve(R, 1);
  // The second artifact of the same path breaks the table's uniqueness:
  // the whole record is rolled back, the first artifact included.
  Error E =
      R.recordBuilt("v0001", {artifact("app", "aa"), artifact("app", "bb")});
  ASSERT_TRUE(bool(E));
  EXPECT_NE(
      toString(std::move(E)).find("cannot record artifact 'app' of v0001"),
      std::string::npos);
  Expected<std::vector<ArtifactRecord>> A = R.artifacts("v0001");
  ASSERT_TRUE(bool(A)) << toString(A.takeError());
  EXPECT_TRUE(A->empty());
  Expected<std::vector<VariantRecord>> All = R.variants();
  ASSERT_TRUE(bool(All));
  EXPECT_EQ((*All)[0].Status, "building");
  // And the registry still takes a good record.
  ASSERT_FALSE(bool(R.recordBuilt("v0001", {artifact("app", "aa")})));
  EXPECT_EQ(R.artifacts("v0001")->size(), 1u);
}

TEST(RegistryTest, RefusesAnotherKey) {
  Fixture F;
  { Registry R = F.create(); }
  std::string Other = populationKeyId(keyOf("another secret"));
  Expected<Registry> R = Registry::open(F.Path, Other, /*Write=*/false);
  ASSERT_FALSE(bool(R));
  std::string Message = toString(R.takeError());
  EXPECT_NE(Message.find("registry '" + F.Path +
                         "' belongs to another master secret"),
            std::string::npos)
      << Message;
}

TEST(RegistryTest, MissingFileIsNamed) {
  Fixture F;
  Expected<Registry> R = Registry::open(F.Path, F.KeyId, /*Write=*/false);
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(toString(R.takeError()),
            "registry '" + F.Path +
                "' does not exist (divtool population creates it; "
                "--registry names another)");
  EXPECT_FALSE(sys::fs::exists(F.Path));
}

TEST(RegistryTest, NotADatabaseIsRefusedAndLeftAlone) {
  Fixture F;
  std::string Text = F.D.write("notes.txt", std::string(4096, 'x'));
  Expected<Registry> R = Registry::openOrCreate(Text, F.KeyId);
  ASSERT_FALSE(bool(R));
  std::string Message = toString(R.takeError());
  EXPECT_NE(Message.find("'" + Text + "' is not a divtool registry"),
            std::string::npos)
      << Message;
  EXPECT_EQ(TempDir::read(Text), std::string(4096, 'x'));
}

} // namespace
