//===- ProgramCode.h - A linked program's code and what refers to it ------===//
//
// What divtool rerandomize needs to prove a rewritten program sound: the
// code of a little-endian ELF64 executable or shared object as the loader
// maps it, its function symbols, and every place that holds a code address:
//
//   - in code: each direct jump or call, and each PC-relative operand that
//     reaches code (`lea f(%rip)`, a function's address taken);
//   - in data: dynamic relocations (base-relative, IFUNC resolvers, absolute
//     ones against a defined symbol), the relocations of data sections that
//     --emit-relocs kept (computed-goto and jump tables, function pointers),
//     .init_array, .fini_array and .preinit_array, defined dynamic symbols
//     (what -Wl,-E exports), the entry point;
//   - in unwind tables: each FDE's start and each landing pad of its LSDA
//     (.eh_frame, .gcc_except_table).
//
// Functions are keyed by name, with "#N" for the Nth symbol of a name in
// symbol-table order: LLVM BOLT keeps the input's symbol table order, so a
// golden master's and an install's keys pair up.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DIVTOOL_INSTALL_PROGRAMCODE_H
#define DIVCC_DIVTOOL_INSTALL_PROGRAMCODE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/Error.h"
#include "llvm/TargetParser/Triple.h"

#include <optional>
#include <string>
#include <vector>

namespace divcc {

class Disassembler;

struct CodeFunction {
  std::string Key;
  uint64_t Address;
  /// The symbol's size; for a symbol of none (the C runtime's own), up to
  /// the next function symbol or the end of its section.
  uint64_t Size;
  bool Sized;
  uint64_t end() const { return Address + Size; }
};

enum class ReferenceKind {
  Jump,
  Call,
  CodeOperand,
  DynamicRelocation,
  StaticRelocation,
  ArrayEntry,
  DynamicSymbol,
  EntryPoint,
  FrameStart,
  LandingPad,
};

/// "call", "dynamic relocation"...: what a reference is, for messages.
llvm::StringRef describe(ReferenceKind K);

struct CodeReference {
  ReferenceKind Kind;
  /// The instruction's address, the data slot's, or the FDE's start; 0 for
  /// the entry point and dynamic symbols.
  uint64_t Site;
  uint64_t Target;
  /// The function the site is in (code references, landing pads), if any.
  std::optional<size_t> Function;
  /// A dynamic symbol's name; a dynamic relocation's entry's file offset.
  std::string Symbol;
  uint64_t FileOffset = 0;
  /// The size of the instruction at Site (code references).
  unsigned Size = 0;
};

class ProgramCode {
public:
  /// Reads the ELF image \p Image (which must outlive the result).
  static llvm::Expected<ProgramCode> read(llvm::ArrayRef<uint8_t> Image);

  llvm::Triple::ArchType arch() const { return Arch; }
  bool isSharedObjectOrPie() const { return Dynamic; }
  /// Function symbols in executable sections, sorted by address.
  const std::vector<CodeFunction> &functions() const { return Functions; }
  const CodeFunction *function(llvm::StringRef Key) const;
  /// The function whose bytes hold \p Address, if any.
  std::optional<size_t> functionAt(uint64_t Address) const;
  /// Whether \p Address is in an executable section.
  bool inCode(uint64_t Address) const;
  /// Whether \p Address is in a section of linker-made code (.plt, .init,
  /// .fini...) that a rewrite keeps where it is.
  bool inLinkerCode(uint64_t Address) const;
  /// The name of the section holding \p Address ("" if none), and its
  /// start (0 if none).
  llvm::StringRef sectionAt(uint64_t Address) const;
  uint64_t sectionStart(uint64_t Address) const;
  /// The end of the section holding \p Address (0 if none).
  uint64_t sectionEnd(uint64_t Address) const;
  /// The \p Size bytes at \p Address, if they are all in one section with
  /// contents in the file.
  llvm::ArrayRef<uint8_t> bytesAt(uint64_t Address, uint64_t Size) const;
  /// The file offset of \p Address, if a section with contents holds it.
  std::optional<uint64_t> fileOffsetOf(uint64_t Address) const;

  /// The references held in data, in the unwind tables and by the entry
  /// point. Fails on unwind tables it cannot read.
  llvm::Expected<std::vector<CodeReference>> dataReferences() const;
  /// The references held in the code of each function and of linker-made
  /// code sections, decoded by \p D.
  std::vector<CodeReference> codeReferences(const Disassembler &D) const;
  /// The instruction boundaries of function \p F, by a linear sweep.
  const std::vector<uint64_t> &boundaries(size_t F,
                                          const Disassembler &D) const;
  bool isBoundary(size_t F, uint64_t Address, const Disassembler &D) const;

private:
  struct Section {
    std::string Name;
    uint64_t Address, Size, Offset;
    uint32_t Type;
    uint64_t Flags;
    uint32_t Link, Info;
    uint64_t EntrySize;
    bool executable() const { return Flags & llvm::ELF::SHF_EXECINSTR; }
    bool contains(uint64_t A) const { return A >= Address && A - Address < Size; }
  };
  const Section *sectionOf(uint64_t Address) const;
  llvm::Error readLandingPads(uint64_t FunctionStart, uint64_t Lsda,
                              std::vector<CodeReference> &Out) const;

  llvm::ArrayRef<uint8_t> Image;
  llvm::Triple::ArchType Arch = llvm::Triple::UnknownArch;
  bool Dynamic = false;
  uint64_t Entry = 0;
  std::vector<Section> Sections; // loaded ones with contents, by address
  std::vector<CodeFunction> Functions;
  llvm::StringMap<size_t> ByKey;
  // The dynamic relocation entries, dynamic symbols and kept static
  // relocations, read once.
  struct Rela {
    uint64_t Offset, Info;
    int64_t Addend;
    uint64_t FileOffset;
    bool Dynamic;
    uint32_t SymbolTable; // section index of its symbol table
  };
  std::vector<Rela> Relocations;
  mutable std::vector<std::vector<uint64_t>> Boundaries;
};

} // namespace divcc

#endif
