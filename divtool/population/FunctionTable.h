//===- FunctionTable.h - A binary's functions, compared across rebuilds ---===//
//
// divtool symbolize reads line tables from a rebuild with -g only for the
// functions whose code that rebuild left as shipped. "The same code" cannot
// mean the same bytes: when -g changes one function's size, every function
// after it moves, and each call, jump or RIP-relative access that crosses
// the move gets another displacement although it reaches the same place.
// So two copies of a function are the same code when they decode to the
// same instructions, where PC-relative operands may differ as long as they
// reach the same place: the same offset in the same function (by name and
// rank), else the same offset in the same section.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DIVTOOL_POPULATION_FUNCTIONTABLE_H
#define DIVCC_DIVTOOL_POPULATION_FUNCTIONTABLE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace divcc {

class Disassembler;

/// The functions of an ELF file, from its symbol table: local functions of
/// the same name are told apart by their rank in address order, which a
/// rebuild with -g keeps (the same functions, in the same order).
class FunctionTable {
public:
  struct Function {
    std::string Name;
    unsigned Rank = 0;
    uint64_t Address = 0, Size = 0;
    llvm::StringRef Bytes; ///< Empty if not in the file (NOBITS).
  };

  static llvm::Expected<FunctionTable> read(llvm::StringRef Path);

  /// The function \p Address is in, if any.
  const Function *at(uint64_t Address) const;
  /// The function of \p Name and \p Rank, if any.
  const Function *find(llvm::StringRef Name, unsigned Rank) const;
  /// Where \p Address is, independent of where functions and sections were
  /// placed: "function NAME#RANK+OFFSET", "section NAME+OFFSET", or the
  /// address itself outside any allocated section.
  std::string placeOf(uint64_t Address) const;
  /// The disassembler for this file's architecture.
  llvm::Expected<std::unique_ptr<Disassembler>> disassembler() const;

private:
  llvm::object::OwningBinary<llvm::object::ObjectFile> File;
  std::vector<Function> Functions;
};

/// Whether \p F of \p FTable and \p G of \p GTable are the same code (see
/// the file comment): false for functions of other sizes, instructions that
/// differ in anything but a displacement, or displacements reaching other
/// places.
bool sameCode(const FunctionTable &FTable, const FunctionTable::Function &F,
              const FunctionTable &GTable, const FunctionTable::Function &G,
              const Disassembler &D);

} // namespace divcc

#endif
