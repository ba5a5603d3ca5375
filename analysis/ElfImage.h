//===- ElfImage.h - The code of an ELF executable, as it will be mapped ---===//
//
// divtool reads executables and shared objects the way the loader sees them:
// the bytes of each executable PT_LOAD segment at its virtual address, and
// the function symbols of .symtab. Section headers and debug info play no
// part, so a binary stripped of them is read the same (only the per-function
// report needs .symtab). Without .symtab, the sized functions of .dynsym
// still locate gadgets for divtool audit's relative survival.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_ANALYSIS_ELFIMAGE_H
#define DIVCC_ANALYSIS_ELFIMAGE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Object/Binary.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Error.h"
#include "llvm/TargetParser/Triple.h"

#include <string>
#include <vector>

namespace divcc {

struct CodeSegment {
  uint64_t Address;
  llvm::ArrayRef<uint8_t> Bytes;
};

/// An ELF mapping symbol ("$a", "$t", "$d", "$x", perhaps "$t.1"): from
/// Address on, the bytes are what Letter says (targets/GadgetTarget.h).
struct MappingSymbol {
  uint64_t Address;
  char Letter;
};

struct FunctionSymbol {
  /// The symbol name; a name that several local symbols share gets "#2",
  /// "#3"... in address order, so that each key names one function.
  std::string Key;
  uint64_t Address;
  uint64_t Size;
};

/// The \p Size bytes at \p Address in the section \p Sec, or empty if they
/// are not all in it (a symbol of no size, in .bss, or outside it).
llvm::StringRef sectionBytes(const llvm::object::SectionRef &Sec,
                             uint64_t Address, uint64_t Size);

class ElfImage {
public:
  /// Reads \p Path. Fails with a message naming the file and the problem
  /// for anything that is not a complete ELF executable or shared object
  /// of an architecture divtool reads.
  static llvm::Expected<ElfImage> open(llvm::StringRef Path);

  llvm::StringRef path() const { return Path; }
  llvm::Triple::ArchType arch() const { return Arch; }
  const std::vector<CodeSegment> &code() const { return Code; }
  /// Functions with a size, sorted by address. Empty if stripped.
  const std::vector<FunctionSymbol> &functions() const { return Functions; }
  bool hasSymbolTable() const { return SymbolTable; }
  /// The mapping symbols of .symtab, sorted by address.
  const std::vector<MappingSymbol> &mappingSymbols() const { return Mappings; }
  /// The functions by which gadgets are located inside functions (divtool
  /// audit's relative survival): functions() if the binary has a .symtab,
  /// else the sized functions its .dynsym defines (exported ones only).
  const std::vector<FunctionSymbol> &namedFunctions() const {
    return SymbolTable ? Functions : DynamicFunctions;
  }
  uint64_t codeSize() const;

  /// The \p Size code bytes at \p Address, or an empty array if they are not
  /// all inside one executable segment.
  llvm::ArrayRef<uint8_t> codeAt(uint64_t Address, uint64_t Size) const;
  /// The code bytes from \p Address to the end of its segment (empty if
  /// \p Address is in none).
  llvm::ArrayRef<uint8_t> codeFrom(uint64_t Address) const;

private:
  std::string Path;
  llvm::object::OwningBinary<llvm::object::Binary> File;
  llvm::Triple::ArchType Arch = llvm::Triple::UnknownArch;
  std::vector<CodeSegment> Code;
  std::vector<FunctionSymbol> Functions;
  std::vector<FunctionSymbol> DynamicFunctions; // only without .symtab
  std::vector<MappingSymbol> Mappings;
  bool SymbolTable = false;
};

} // namespace divcc

#endif
