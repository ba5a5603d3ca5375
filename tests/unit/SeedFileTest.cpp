//===- SeedFileTest.cpp - The one reader of seed files --------------------===//
//
// random/SeedFile.h: every byte of the file is the secret (a trailing
// newline included), the bytes read are wiped, and an empty or missing file
// is refused with a message that names the file but not what it holds.
//
//===----------------------------------------------------------------------===//

#include "TempDir.h"

#include "random/SeedFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

using namespace divcc;
using namespace llvm;

namespace {

constexpr char Secret[] = "correct horse battery staple\n";

TEST(SeedFileTest, KeyIsThatOfEveryByte) {
  TempDir D;
  std::string File = D.write("key", Secret);
  Expected<MasterKey> Key = readSeedFile(File);
  ASSERT_TRUE(bool(Key)) << toString(Key.takeError());
  EXPECT_EQ(Key->toHex(),
            MasterKey::fromSecret(arrayRefFromStringRef(Secret)).toHex());
  // The newline is part of the secret.
  EXPECT_NE(Key->toHex(),
            MasterKey::fromSecret(
                arrayRefFromStringRef(StringRef(Secret).drop_back()))
                .toHex());
}

TEST(SeedFileTest, BytesReadAreWiped) {
  TempDir D;
  std::string File = D.write("key", Secret);
  Expected<SecretBuffer> Read = readSecretFile(File);
  ASSERT_TRUE(bool(Read)) << toString(Read.takeError());
  ArrayRef<uint8_t> Bytes = Read->bytes();
  ASSERT_EQ(toStringRef(Bytes), Secret);
  // The buffer stays allocated until the SecretBuffer goes: what it held
  // can be looked at after wipe().
  const uint8_t *Data = Bytes.data();
  size_t Size = Bytes.size();
  Read->wipe();
  EXPECT_TRUE(Read->bytes().empty());
  for (size_t I = 0; I < Size; ++I)
    EXPECT_EQ(Data[I], 0) << "byte " << I << " was not wiped";
}

TEST(SeedFileTest, MissingFileNamesThePath) {
  TempDir D;
  std::string File = D.file("nokey");
  Expected<MasterKey> Key = readSeedFile(File);
  ASSERT_FALSE(bool(Key));
  EXPECT_EQ(toString(Key.takeError()),
            "cannot read seed file '" + File + "': No such file or directory");
}

TEST(SeedFileTest, EmptyFileIsRefused) {
  TempDir D;
  std::string File = D.write("empty", "");
  Expected<MasterKey> Key = readSeedFile(File);
  ASSERT_FALSE(bool(Key));
  EXPECT_EQ(toString(Key.takeError()), "seed file '" + File + "' is empty");
  Key = readSeedFile(File, "-fdiversify-seed-file=");
  ASSERT_FALSE(bool(Key));
  EXPECT_EQ(toString(Key.takeError()),
            "seed file '" + File + "' (from -fdiversify-seed-file=) is empty");
}

TEST(SeedFileTest, ErrorsNeverShowTheSecret) {
  TempDir D;
  std::string File = D.write("key", Secret);
  // Unreadable: a directory, not a file; named with where it came from.
  Expected<SecretBuffer> Read = readSecretFile(D.Path, "DIVCC_SEED_FILE");
  ASSERT_FALSE(bool(Read));
  std::string Message = toString(Read.takeError());
  EXPECT_EQ(Message, "cannot read seed file '" + D.Path +
                         "' (from DIVCC_SEED_FILE): Is a directory");
  if (::geteuid() != 0) {
    ASSERT_EQ(::chmod(File.c_str(), 0), 0);
    Expected<MasterKey> Key = readSeedFile(File);
    ASSERT_FALSE(bool(Key));
    Message = toString(Key.takeError());
    EXPECT_EQ(Message,
              "cannot read seed file '" + File + "': Permission denied");
  }
  EXPECT_EQ(Message.find("horse"), std::string::npos);
}

TEST(SeedFileTest, PrivateDirHoldsSecretsForItsLifetime) {
  std::string Path, Written;
  {
    Expected<PrivateDir> Dir = PrivateDir::create("divcc-unittest");
    ASSERT_TRUE(bool(Dir)) << toString(Dir.takeError());
    Path = Dir->path();
    sys::fs::file_status Status;
    ASSERT_FALSE(sys::fs::status(Path, Status));
    EXPECT_EQ(Status.permissions(), sys::fs::owner_all);
    uint8_t Bytes[] = {1, 2, 3};
    Expected<std::string> File = Dir->writeSecret("v0001", Bytes);
    ASSERT_TRUE(bool(File)) << toString(File.takeError());
    Written = *File;
    ASSERT_FALSE(sys::fs::status(Written, Status));
    EXPECT_EQ(Status.permissions(), sys::fs::owner_read | sys::fs::owner_write);
    EXPECT_EQ(TempDir::read(Written), "\x01\x02\x03");
    // A second secret of the same name is refused, not overwritten.
    Expected<std::string> Again = Dir->writeSecret("v0001", Bytes);
    EXPECT_FALSE(bool(Again));
    consumeError(Again.takeError());
    Dir->removeSecret(Written);
    EXPECT_FALSE(sys::fs::exists(Written));
  }
  EXPECT_FALSE(sys::fs::exists(Path));
}

} // namespace
