//===- GadgetsTest.cpp - Gadget finding on hand-assembled x86-64 code -----===//
//
// Each case is a few bytes assembled by hand, with the gadgets it holds
// worked out by hand: which starts (offsets) reach an ending within the
// instruction limit, unaligned starts inside other instructions included,
// and which instructions stop a gadget.
//
//===----------------------------------------------------------------------===//

#include "analysis/Gadgets.h"

#include <gtest/gtest.h>

#include <utility>

using namespace divcc;

namespace {

constexpr uint64_t Base = 0x401000;

class GadgetsTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    auto D = Disassembler::create(llvm::Triple::x86_64);
    ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
    Dis = std::move(*D);
  }

  /// (offset, kind) of each gadget of \p Code.
  static std::vector<std::pair<uint64_t, GadgetKind>>
  find(std::vector<uint8_t> Code, GadgetOptions Opts = {}) {
    std::vector<std::pair<uint64_t, GadgetKind>> Found;
    for (const Gadget &G : findGadgets(Code, Base, *Dis, Opts))
      Found.push_back({G.Address - Base, G.Kind});
    return Found;
  }

  static inline std::unique_ptr<Disassembler> Dis;
};

using K = GadgetKind;
using Found = std::vector<std::pair<uint64_t, GadgetKind>>;

TEST_F(GadgetsTest, PopRet) {
  // 5f pop rdi; c3 ret
  EXPECT_EQ(find({0x5f, 0xc3}), (Found{{0, K::Ret}, {1, K::Ret}}));
  EXPECT_EQ(Dis->print(std::vector<uint8_t>{0x5f, 0xc3}, Base),
            "pop rdi ; ret");
}

TEST_F(GadgetsTest, UnalignedStartsAndInstructionLimit) {
  // 48 b8 5f c3 90 90 90 90 90 90   movabs rax, imm64
  // c3                              ret
  // Offset 2 decodes as pop rdi; ret inside the immediate. Offsets 4 and 5
  // need 7 and 6 instructions, offset 1 (mov eax, imm32; 4 nops; ret) 6:
  // over the limit of 5.
  std::vector<uint8_t> Code = {0x48, 0xb8, 0x5f, 0xc3, 0x90, 0x90,
                               0x90, 0x90, 0x90, 0x90, 0xc3};
  EXPECT_EQ(find(Code), (Found{{0, K::Ret},
                               {2, K::Ret},
                               {3, K::Ret},
                               {6, K::Ret},
                               {7, K::Ret},
                               {8, K::Ret},
                               {9, K::Ret},
                               {10, K::Ret}}));
  GadgetOptions Six;
  Six.MaxInstructions = 6;
  EXPECT_EQ(find(Code, Six).size(), 10u); // offsets 1 and 5 join
}

TEST_F(GadgetsTest, Kinds) {
  // ff e0 jmp rax; ff d0 call rax; 0f 05 syscall; cd 80 int 0x80;
  // c2 08 00 ret 8
  EXPECT_EQ(find({0xff, 0xe0}), (Found{{0, K::Jop}}));
  EXPECT_EQ(find({0xff, 0xd0}), (Found{{0, K::Jop}}));
  EXPECT_EQ(find({0x0f, 0x05}), (Found{{0, K::Sys}}));
  EXPECT_EQ(find({0xcd, 0x80}), (Found{{0, K::Sys}}));
  EXPECT_EQ(find({0xc2, 0x08, 0x00}), (Found{{0, K::Ret}}));
  // cd 03 int 3 is a trap, not a system call: no gadget.
  EXPECT_EQ(find({0xcd, 0x03}), Found{});
}

TEST_F(GadgetsTest, CallsAndJumpsStopGadgets) {
  // e8 00 00 00 00 call rel32; c3 ret. The call cannot be inside a gadget,
  // but its immediate decodes as "add [rax], al" from offsets 1 and 3.
  EXPECT_EQ(find({0xe8, 0x00, 0x00, 0x00, 0x00, 0xc3}),
            (Found{{1, K::Ret}, {3, K::Ret}, {5, K::Ret}}));
  // eb 00 jmp +0; c3: the jump always leaves.
  EXPECT_EQ(find({0xeb, 0x00, 0xc3}), (Found{{2, K::Ret}}));
  // 74 00 je +0; c3: the fall-through path runs into the ret.
  EXPECT_EQ(find({0x74, 0x00, 0xc3}), (Found{{0, K::Ret}, {2, K::Ret}}));
  // 06 is not an instruction in 64-bit mode.
  EXPECT_EQ(find({0x06, 0xc3}), (Found{{1, K::Ret}}));
}

TEST_F(GadgetsTest, Reach) {
  // 48 89 c7 mov rdi, rax; c3 ret. From offset 1: 89 c7 mov edi, eax; ret.
  std::vector<uint8_t> Code = {0x48, 0x89, 0xc7, 0xc3};
  GadgetOptions Opts;
  EXPECT_EQ(find(Code, Opts), (Found{{0, K::Ret}, {1, K::Ret}, {3, K::Ret}}));
  Opts.Reach = 2;
  EXPECT_EQ(find(Code, Opts), (Found{{1, K::Ret}, {3, K::Ret}}));
  Opts.Reach = 1;
  EXPECT_EQ(find(Code, Opts), (Found{{3, K::Ret}}));
}

TEST_F(GadgetsTest, SizesAndInstructionCounts) {
  std::vector<uint8_t> Code = {0x48, 0x89, 0xc7, 0x5f, 0xc3};
  std::vector<Gadget> G = findGadgets(Code, Base, *Dis, {});
  ASSERT_FALSE(G.empty());
  EXPECT_EQ(G.front().Address, Base);
  EXPECT_EQ(G.front().Size, 5u);
  EXPECT_EQ(G.front().Instructions, 3u);
}

} // namespace
