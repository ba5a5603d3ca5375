//===- Relative.h - Gadgets at the same offset in the same function -------===//
//
// Absolute survival assumes an attacker who knows nothing of the variant. An
// attacker who leaks one code pointer per function (return addresses on a
// leaked stack, a function pointer in a leaked object) knows where each such
// function starts, and keeps every gadget that sits at the same offset from
// the start of the function of the same name, with the same bytes: relative
// survival. Shuffling whole functions defeats absolute survival and leaves
// relative survival untouched; only changes inside functions (NOPs,
// substitutions, register and stack-slot randomization) lower it.
//
// A base gadget at address A lies in function F when F, a sized STT_FUNC
// symbol (.symtab, or .dynsym for a binary without one), covers A; its
// offset is A - start(F). It survives relatively in a variant if the variant
// has exactly one function of F's name, the offset lies inside it, and the
// same bytes (the gadget's instructions up to its ending) are there.
//
// What is not counted, in the denominator or anywhere:
//   - gadgets outside every sized function symbol (the PLT, padding, start
//     files written in assembly without sizes): no leaked pointer locates
//     them, and they are what absolute survival already reports;
//   - gadgets in a function whose name the base defines more than once
//     (static functions of the same name in several files): the symbol
//     table does not say which of the variant's copies corresponds, and a
//     guess by size or order would be wrong exactly when diversity changed
//     the sizes. A variant that defines a name more than once matches none
//     of the base's gadgets in that name's function.
//
// Cost: one function index per base gadget, kept for the whole audit, and
// a name table of each variant while it is compared. (The code is in
// Audit.cpp, beside the absolute comparison.)
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DIVTOOL_AUDIT_RELATIVE_H
#define DIVCC_DIVTOOL_AUDIT_RELATIVE_H

#include "analysis/ElfImage.h"
#include "analysis/Gadgets.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <string>
#include <vector>

namespace divcc {

/// The \p Size code bytes at \p Address, or an empty array if they are not
/// all mapped (ElfImage::codeAt, or a test's buffer).
using CodeReader =
    llvm::function_ref<llvm::ArrayRef<uint8_t>(uint64_t Address,
                                               uint64_t Size)>;

/// The base's gadgets located in the base's functions.
class RelativeIndex {
public:
  /// \p Functions sorted by address, as ElfImage::namedFunctions() gives
  /// them; \p Gadgets sorted by address.
  RelativeIndex(const std::vector<FunctionSymbol> &Functions,
                const std::vector<Gadget> &Gadgets);

  /// Gadgets inside a function with a name of its own: the denominator.
  uint64_t inFunctions() const { return InFunctions; }
  /// Gadgets outside every sized function symbol.
  uint64_t outsideFunctions() const { return Outside; }
  /// Gadgets in functions whose name the base defines more than once.
  uint64_t inAmbiguousFunctions() const { return Ambiguous; }
  /// Whether base gadget \p I counts toward the denominator.
  bool counted(size_t I) const { return FunctionOf[I] < Functions.size(); }

  /// The base gadgets (\p Gadgets, the list given to the constructor) that
  /// survive relatively in a variant with \p VariantFunctions; each such
  /// gadget's entry of \p Counts, if given, is incremented.
  uint64_t compare(const std::vector<Gadget> &Gadgets, CodeReader Base,
                   const std::vector<FunctionSymbol> &VariantFunctions,
                   CodeReader Variant,
                   std::vector<uint32_t> *Counts = nullptr) const;

private:
  static constexpr uint32_t NoFunction = UINT32_MAX;

  struct Located {
    std::string Name; // the symbol name, without ElfImage's "#2"
    uint64_t Address;
  };
  std::vector<Located> Functions; // those with a name of their own
  std::vector<uint32_t> FunctionOf; // per gadget: into Functions, or none
  uint64_t InFunctions = 0, Outside = 0, Ambiguous = 0;
};

/// The symbol name of each function of \p Functions: ElfImage keys the
/// second "f" of a binary "f#2", and "f#2" is "f" when \p Functions also
/// holds "f"; any other key is the name itself.
std::vector<std::string>
symbolNames(const std::vector<FunctionSymbol> &Functions);

} // namespace divcc

#endif
