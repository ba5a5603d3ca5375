//===- GadgetsTest.cpp - Gadget finding on hand-assembled machine code ----===//
//
// Each case is a few bytes of x86-64, AArch64, RISC-V 64 or 32-bit ARM
// (Thumb and ARM state) code assembled by hand, with the gadgets it holds
// worked out by hand: which starts (offsets) reach an ending within the
// instruction limit, unaligned starts inside other instructions included
// on x86-64 (AArch64 and ARM state decode only aligned offsets, RISC-V and
// Thumb every even one), and which instructions stop a gadget.
//
//===----------------------------------------------------------------------===//

#include "analysis/Gadgets.h"

#include <gtest/gtest.h>

#include <utility>

using namespace divcc;

namespace {

constexpr uint64_t Base = 0x401000;

/// A fixture with the disassembler of one architecture.
template <llvm::Triple::ArchType Arch>
class GadgetsTestFor : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    auto D = Disassembler::create(Arch);
    ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
    Dis = std::move(*D);
  }

  /// (offset, kind) of each gadget of \p Code, in instruction set \p Set.
  static std::vector<std::pair<uint64_t, GadgetKind>>
  find(std::vector<uint8_t> Code, GadgetOptions Opts = {}, unsigned Set = 0) {
    std::vector<std::pair<uint64_t, GadgetKind>> Found;
    for (const Gadget &G : findGadgets(Code, Base, *Dis, Opts, Set))
      Found.push_back({G.Address - Base, G.Kind});
    return Found;
  }

  static inline std::unique_ptr<Disassembler> Dis;
};

using GadgetsTest = GadgetsTestFor<llvm::Triple::x86_64>;

using K = GadgetKind;
using Found = std::vector<std::pair<uint64_t, GadgetKind>>;

TEST_F(GadgetsTest, PopRet) {
  // 5f pop rdi; c3 ret
  EXPECT_EQ(find({0x5f, 0xc3}), (Found{{0, K::Ret}, {1, K::Ret}}));
  EXPECT_EQ(Dis->print(std::vector<uint8_t>{0x5f, 0xc3}, Base),
            "pop rdi ; ret");
}

/// Decodes the 8-byte instructions \p A and \p B, which differ in their
/// displacement (bytes 4 to 7) only, and expects \p A to reach rip + 0x10
/// and both to be the same instruction moved.
void expectMovedDisplacement(const Disassembler &Dis,
                             std::vector<uint8_t> A) {
  std::vector<uint8_t> B = A;
  B[4] = 0x20;
  llvm::MCInst IA, IB;
  ASSERT_EQ(Dis.decode(A, Base, IA), 8u);
  ASSERT_EQ(Dis.decode(B, Base, IB), 8u);
  EXPECT_EQ(Dis.pcRelativeTarget(IA, Base, 8), Base + 8 + 0x10);
  EXPECT_TRUE(Dis.sameExceptDisplacements(IA, IB));
}

TEST_F(GadgetsTest, SegmentPrefixedRipRelativeOperandsAreDisplacements) {
  // 2e 48 8b 05 10 00 00 00   mov rax, qword ptr cs:[rip + 0x10]: divcc's
  // prefixes name a segment whose base is zero, and the operand still
  // reaches rip + 0x10; another displacement is the same instruction moved.
  expectMovedDisplacement(*Dis, {0x2e, 0x48, 0x8b, 0x05, 0x10, 0, 0, 0});
  // 2e 48 8d 05 10 00 00 00   lea rax, cs:[rip + 0x10]: an lea's reference
  // is not typed as memory in LLVM's descriptors, and is one all the same.
  expectMovedDisplacement(*Dis, {0x2e, 0x48, 0x8d, 0x05, 0x10, 0, 0, 0});
  // fs has a base of its own: mov rax, qword ptr fs:[rip + 0x10].
  std::vector<uint8_t> F = {0x64, 0x48, 0x8b, 0x05, 0x10, 0, 0, 0};
  llvm::MCInst IF;
  ASSERT_EQ(Dis->decode(F, Base, IF), 8u);
  EXPECT_EQ(Dis->pcRelativeTarget(IF, Base, 8), std::nullopt);
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

namespace {

using AArch64GadgetsTest = GadgetsTestFor<llvm::Triple::aarch64>;

/// Little-endian bytes of AArch64 instruction words.
std::vector<uint8_t> words(std::initializer_list<uint32_t> Words) {
  std::vector<uint8_t> Bytes;
  for (uint32_t W : Words)
    for (unsigned I = 0; I < 4; ++I)
      Bytes.push_back(uint8_t(W >> (8 * I)));
  return Bytes;
}

constexpr uint32_t Ret = 0xd65f03c0;       // ret
constexpr uint32_t LdpFpLr = 0xa8c17bfd;   // ldp x29, x30, [sp], #16
constexpr uint32_t Nop = 0xd503201f;       // nop
constexpr uint32_t MovXzr = 0xaa1f03ff;    // mov xzr, xzr (a divcc NOP form)

TEST_F(AArch64GadgetsTest, LdpRet) {
  EXPECT_EQ(find(words({LdpFpLr, Ret})), (Found{{0, K::Ret}, {4, K::Ret}}));
  EXPECT_EQ(Dis->print(words({LdpFpLr, Ret}), Base),
            "ldp x29, x30, [sp], #16 ; ret");
}

TEST_F(AArch64GadgetsTest, Kinds) {
  EXPECT_EQ(find(words({0xd61f0200})), (Found{{0, K::Jop}})); // br x16
  EXPECT_EQ(find(words({0xd63f0100})), (Found{{0, K::Jop}})); // blr x8
  EXPECT_EQ(find(words({0xd61f0a1f})), (Found{{0, K::Jop}})); // braaz x16
  EXPECT_EQ(find(words({0xd4000001})), (Found{{0, K::Sys}})); // svc #0
  EXPECT_EQ(find(words({0xd65f0bff})), (Found{{0, K::Ret}})); // retaa
  EXPECT_EQ(find(words({0xd65f0100})), (Found{{0, K::Ret}})); // ret x8
}

TEST_F(AArch64GadgetsTest, OnlyAlignedStartsDecode) {
  // Bytes 2..5 read c0 03 5f d6, a ret, but no instruction starts there.
  std::vector<uint8_t> Code = {0x1f, 0x20, 0xc0, 0x03, 0x5f, 0xd6, 0x03, 0xd5};
  for (uint8_t B : words({Ret}))
    Code.push_back(B);
  for (const auto &[Offset, Kind] : find(Code))
    EXPECT_EQ(Offset % 4, 0u) << "gadget at offset " << Offset;
  EXPECT_EQ(find(Code).back(), (std::pair<uint64_t, GadgetKind>{8, K::Ret}));
}

TEST_F(AArch64GadgetsTest, NopFormsChainIntoGadgets) {
  // NOPs are harmless instructions, not barriers: they lengthen gadgets.
  EXPECT_EQ(find(words({Nop, MovXzr, Ret})),
            (Found{{0, K::Ret}, {4, K::Ret}, {8, K::Ret}}));
  GadgetOptions Two;
  Two.MaxInstructions = 2;
  EXPECT_EQ(find(words({Nop, MovXzr, Ret}), Two),
            (Found{{4, K::Ret}, {8, K::Ret}}));
}

TEST_F(AArch64GadgetsTest, BranchesCallsAndTrapsStopGadgets) {
  EXPECT_EQ(find(words({0x14000002, Ret})), (Found{{4, K::Ret}})); // b .+8
  EXPECT_EQ(find(words({0x94000002, Ret})), (Found{{4, K::Ret}})); // bl .+8
  EXPECT_EQ(find(words({0xd4200000, Ret})), (Found{{4, K::Ret}})); // brk #0
  EXPECT_EQ(find(words({0x00000000, Ret})), (Found{{4, K::Ret}})); // udf #0
  // A conditional branch falls through to the ending: b.eq .+8; ret.
  EXPECT_EQ(find(words({0x54000040, Ret})), (Found{{0, K::Ret}, {4, K::Ret}}));
  // cbz x0, .+8; ret
  EXPECT_EQ(find(words({0xb4000040, Ret})), (Found{{0, K::Ret}, {4, K::Ret}}));
}

} // namespace

namespace {

using RISCVGadgetsTest = GadgetsTestFor<llvm::Triple::riscv64>;

/// Little-endian bytes of RISC-V instructions of 2 (below 0x10000, with
/// the low bits of a compressed one) or 4 bytes.
std::vector<uint8_t> rv(std::initializer_list<uint32_t> Instructions) {
  std::vector<uint8_t> Bytes;
  for (uint32_t I : Instructions)
    for (unsigned B = 0; B < ((I & 3) == 3 ? 4u : 2u); ++B)
      Bytes.push_back(uint8_t(I >> (8 * B)));
  return Bytes;
}

constexpr uint32_t RvRet = 0x00008067;  // ret (jalr x0, 0(ra))
constexpr uint32_t CRet = 0x8082;       // c.jr ra
constexpr uint32_t CLdspRa = 0x60a2;    // c.ldsp ra, 8(sp)
constexpr uint32_t CNop = 0x0001;       // c.nop
constexpr uint32_t AndiX0 = 0x00007013; // andi zero, zero, 0 (a NOP form)

TEST_F(RISCVGadgetsTest, LoadReturnAddressAndReturn) {
  EXPECT_EQ(find(rv({CLdspRa, CRet})), (Found{{0, K::Ret}, {2, K::Ret}}));
  EXPECT_EQ(Dis->print(rv({CLdspRa, CRet}), Base), "ld ra, 8(sp) ; ret");
}

TEST_F(RISCVGadgetsTest, Kinds) {
  EXPECT_EQ(find(rv({RvRet})), (Found{{0, K::Ret}}));
  EXPECT_EQ(find(rv({CRet})), (Found{{0, K::Ret}}));
  EXPECT_EQ(find(rv({0x000780e7})), (Found{{0, K::Jop}})); // jalr a5
  EXPECT_EQ(find(rv({0x00078067})), (Found{{0, K::Jop}})); // jr a5
  EXPECT_EQ(find(rv({0x8782})), (Found{{0, K::Jop}}));     // c.jr a5
  EXPECT_EQ(find(rv({0x9782})), (Found{{0, K::Jop}}));     // c.jalr a5
  EXPECT_EQ(find(rv({0x00000073})), (Found{{0, K::Sys}})); // ecall
}

TEST_F(RISCVGadgetsTest, NopFormsChainIntoGadgets) {
  // andi's upper half (0000) is c.unimp, so no gadget starts inside it.
  EXPECT_EQ(find(rv({CNop, AndiX0, CRet})),
            (Found{{0, K::Ret}, {2, K::Ret}, {6, K::Ret}}));
}

TEST_F(RISCVGadgetsTest, JumpsAndTrapsStopGadgets) {
  EXPECT_EQ(find(rv({0x0000, CRet})), (Found{{2, K::Ret}})); // c.unimp
  EXPECT_EQ(find(rv({0x9002, CRet})), (Found{{2, K::Ret}})); // c.ebreak
  EXPECT_EQ(find(rv({0xa011, CRet})), (Found{{2, K::Ret}})); // c.j .+4
  // A conditional branch falls through to the ending: c.beqz a0, .+4.
  EXPECT_EQ(find(rv({0xc111, CRet})), (Found{{0, K::Ret}, {2, K::Ret}}));
}

} // namespace

namespace {

using ARMGadgetsTest = GadgetsTestFor<llvm::Triple::arm>;

constexpr unsigned Thumb = 0, ArmState = 1; // the ARM instruction sets

/// Little-endian bytes of Thumb halfwords (a 32-bit instruction is two,
/// the first first).
std::vector<uint8_t> thumb(std::initializer_list<uint16_t> Halfwords) {
  std::vector<uint8_t> Bytes;
  for (uint16_t H : Halfwords) {
    Bytes.push_back(uint8_t(H));
    Bytes.push_back(uint8_t(H >> 8));
  }
  return Bytes;
}

/// Little-endian bytes of ARM-state instructions.
std::vector<uint8_t> arm(std::initializer_list<uint32_t> Instructions) {
  std::vector<uint8_t> Bytes;
  for (uint32_t I : Instructions)
    for (unsigned B = 0; B < 4; ++B)
      Bytes.push_back(uint8_t(I >> (8 * B)));
  return Bytes;
}

constexpr uint16_t TBxLr = 0x4770;     // bx lr
constexpr uint32_t ABxLr = 0xe12fff1e; // bx lr

TEST_F(ARMGadgetsTest, ThumbKinds) {
  EXPECT_EQ(find(thumb({TBxLr}), {}, Thumb), (Found{{0, K::Ret}}));
  EXPECT_EQ(find(thumb({0xbd10}), {}, Thumb),
            (Found{{0, K::Ret}})); // pop {r4, pc}
  // pop.w {r4, r5, pc}; ldr pc, [sp], #4
  EXPECT_EQ(find(thumb({0xe8bd, 0x8030}), {}, Thumb), (Found{{0, K::Ret}}));
  EXPECT_EQ(find(thumb({0xf85d, 0xfb04}), {}, Thumb), (Found{{0, K::Ret}}));
  EXPECT_EQ(find(thumb({0x4798}), {}, Thumb), (Found{{0, K::Jop}})); // blx r3
  EXPECT_EQ(find(thumb({0x4710}), {}, Thumb), (Found{{0, K::Jop}})); // bx r2
  // ldr.w pc, [r0]
  EXPECT_EQ(find(thumb({0xf8d0, 0xf000}), {}, Thumb), (Found{{0, K::Jop}}));
  EXPECT_EQ(find(thumb({0xdf00}), {}, Thumb), (Found{{0, K::Sys}})); // svc #0
}

TEST_F(ARMGadgetsTest, ArmStateKinds) {
  EXPECT_EQ(find(arm({ABxLr}), {}, ArmState), (Found{{0, K::Ret}}));
  EXPECT_EQ(find(arm({0xe8bd8010}), {}, ArmState), // pop {r4, pc}
            (Found{{0, K::Ret}}));
  EXPECT_EQ(find(arm({0xe49df004}), {}, ArmState), // ldr pc, [sp], #4
            (Found{{0, K::Ret}}));
  EXPECT_EQ(find(arm({0xe1a0f00e}), {}, ArmState), // mov pc, lr
            (Found{{0, K::Ret}}));
  EXPECT_EQ(find(arm({0xe12fff33}), {}, ArmState), // blx r3
            (Found{{0, K::Jop}}));
  EXPECT_EQ(find(arm({0xe08ff100}), {}, ArmState), // add pc, pc, r0, lsl #2
            (Found{{0, K::Jop}}));
  EXPECT_EQ(find(arm({0xe8918010}), {}, ArmState), // ldm r1, {r4, pc}
            (Found{{0, K::Jop}}));
  EXPECT_EQ(find(arm({0xef000000}), {}, ArmState), // svc #0
            (Found{{0, K::Sys}}));
}

TEST_F(ARMGadgetsTest, StartsEveryTwoBytesInThumbFourInArmState) {
  // movs r0, #1; pop {r4, pc}
  EXPECT_EQ(find(thumb({0x2001, 0xbd10}), {}, Thumb),
            (Found{{0, K::Ret}, {2, K::Ret}}));
  EXPECT_EQ(Dis->print(thumb({0x2001, 0xbd10}), Base, Thumb),
            "movs r0, #1 ; pop {r4, pc}");
  // mov r0, r1; bx lr: nothing starts at offset 2.
  EXPECT_EQ(find(arm({0xe1a00001, ABxLr}), {}, ArmState),
            (Found{{0, K::Ret}, {4, K::Ret}}));
  EXPECT_EQ(Dis->print(arm({0xe1a00001, ABxLr}), Base, ArmState),
            "mov r0, r1 ; bx lr");
}

TEST_F(ARMGadgetsTest, BranchesAndTrapsStopGadgets) {
  EXPECT_EQ(find(thumb({0xe7ff, TBxLr}), {}, Thumb), // b .+2
            (Found{{2, K::Ret}}));
  EXPECT_EQ(find(thumb({0xdede, TBxLr}), {}, Thumb), // udf #222
            (Found{{2, K::Ret}}));
  // A conditional branch falls through to the ending: beq .+2.
  EXPECT_EQ(find(thumb({0xd0ff, TBxLr}), {}, Thumb),
            (Found{{0, K::Ret}, {2, K::Ret}}));
  EXPECT_EQ(find(arm({0xeaffffff, ABxLr}), {}, ArmState), // b .+4
            (Found{{4, K::Ret}}));
  EXPECT_EQ(find(arm({0xe7f000f0, ABxLr}), {}, ArmState), // udf #0
            (Found{{4, K::Ret}}));
  EXPECT_EQ(find(arm({0x0affffff, ABxLr}), {}, ArmState), // beq .+4
            (Found{{0, K::Ret}, {4, K::Ret}}));
}

TEST_F(ARMGadgetsTest, ItBlockStateDoesNotLeak) {
  // it eq; moveq r0, r1; bx lr. A jump to offset 2 runs mov r0, r1 with
  // no condition: every offset decodes as a jump would find it, so
  // decoding the IT instruction leaves no condition on the next bytes.
  std::vector<uint8_t> Code = thumb({0xbf08, 0x4608, TBxLr});
  EXPECT_EQ(find(Code, {}, Thumb),
            (Found{{0, K::Ret}, {2, K::Ret}, {4, K::Ret}}));
  EXPECT_EQ(Dis->print(Code, Base, Thumb), "it eq ; mov r0, r1 ; bx lr");
  EXPECT_EQ(Dis->print(thumb({0xbf08}), Base, Thumb), "it eq");
  EXPECT_EQ(Dis->print(thumb({0x4608, TBxLr}), Base, Thumb),
            "mov r0, r1 ; bx lr");
}

} // namespace
