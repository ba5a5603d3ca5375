//===- UnusedPltTest.cpp - Trapping the PLT an install no longer calls ----===//
//
// divtool/install/UnusedPlt.h on tiny x86-64 programs that clang-19
// assembles and ld.lld links at test time (skipped if either is missing):
// _start calls ext, defined in a shared library, through its PLT stub.
// Bound at load time (-z now), the PLT's header and the stub's lazy-binding
// code become traps and the stub's jump stays while the call does; with the
// call gone, the whole stub becomes traps. Linked for lazy binding, the
// program is not one whose PLT may be touched.
//
//===----------------------------------------------------------------------===//

#include "divtool/install/UnusedPlt.h"

#include "LinkedPrograms.h"

#include "llvm/Object/ELF.h"

#include <gtest/gtest.h>

using namespace divcc;
using namespace llvm;

namespace {

class UnusedPltTest : public LinkedProgramsTest {
protected:
  void SetUp() override {
    LinkedProgramsTest::SetUp();
    if (IsSkipped())
      return;
    Library = Dir.file("libext.so");
    std::string Obj =
        assemble("lib", ".text\n.globl ext\n.type ext,@function\next:\nret\n");
    link({"-shared", Obj, "-o", Library});
  }

  /// _start calling ext through the PLT, linked with \p Flags.
  SmallVector<char, 0> program(StringRef Name,
                               std::vector<StringRef> Flags = {"-z", "now"}) {
    std::string Obj = assemble(Name, ".text\n.globl _start\n_start:\n"
                                     "call ext@PLT\nud2\n");
    std::string Exe = Dir.file(Name);
    std::vector<StringRef> Args = {"-pie", Obj, Library, "-o", Exe};
    Args.insert(Args.end(), Flags.begin(), Flags.end());
    link(Args);
    return readFile<SmallVector<char, 0>>(Exe);
  }

  /// The file bytes of section \p Name of \p Image.
  MutableArrayRef<char> section(SmallVectorImpl<char> &Image, StringRef Name) {
    auto Elf =
        object::ELF64LEFile::create(StringRef(Image.data(), Image.size()));
    EXPECT_TRUE(bool(Elf));
    if (!Elf)
      return {};
    for (const object::ELF64LE::Shdr &S : cantFail(Elf->sections()))
      if (cantFail(Elf->getSectionName(S)) == Name)
        return MutableArrayRef<char>(Image.data() + S.sh_offset, S.sh_size);
    ADD_FAILURE() << "no section " << Name.str();
    return {};
  }

  std::string Library;
};

bool allTraps(ArrayRef<char> Bytes) {
  return llvm::all_of(Bytes, [](char C) { return C == '\xcc'; });
}

TEST_F(UnusedPltTest, CalledStubKeepsItsJump) {
  SmallVector<char, 0> Image = program("called");
  ASSERT_FALSE(Image.empty());
  EXPECT_TRUE(cantFail(bindsNow(Image)));
  SmallVector<char, 0> Before(section(Image, ".plt"));
  ASSERT_EQ(Before.size(), 32u); // the header and ext's stub
  Expected<unsigned> Trapped = trapUnusedPlt(Image);
  ASSERT_TRUE(bool(Trapped)) << toString(Trapped.takeError());
  EXPECT_EQ(*Trapped, 0u);
  MutableArrayRef<char> After = section(Image, ".plt");
  EXPECT_TRUE(allTraps(After.take_front(16)));
  // jmp *ext@GOT(%rip) stays, push/jmp of lazy binding go.
  EXPECT_EQ(ArrayRef<char>(After).slice(16, 6),
            ArrayRef<char>(Before).slice(16, 6));
  EXPECT_TRUE(allTraps(After.drop_front(22)));
}

TEST_F(UnusedPltTest, StubNothingCallsBecomesTraps) {
  SmallVector<char, 0> Image = program("uncalled");
  ASSERT_FALSE(Image.empty());
  // The call (e8 rel32, _start's first instruction) becomes NOPs.
  MutableArrayRef<char> Text = section(Image, ".text");
  ASSERT_GE(Text.size(), 5u);
  ASSERT_EQ(Text[0], '\xe8');
  std::fill_n(Text.data(), 5, '\x90');
  Expected<unsigned> Trapped = trapUnusedPlt(Image);
  ASSERT_TRUE(bool(Trapped)) << toString(Trapped.takeError());
  EXPECT_EQ(*Trapped, 1u);
  EXPECT_TRUE(allTraps(section(Image, ".plt")));
}

TEST_F(UnusedPltTest, LazyBindingIsNotBindingNow) {
  SmallVector<char, 0> Image = program("lazy", {});
  ASSERT_FALSE(Image.empty());
  EXPECT_FALSE(cantFail(bindsNow(Image)));
}

} // namespace
