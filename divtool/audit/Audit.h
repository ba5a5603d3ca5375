//===- Audit.h - divtool audit: what diversity buys against code reuse ----===//
//
// An audit compares a base binary with variants of it. A gadget of the base
// survives in a variant when the variant holds the same bytes at the same
// virtual address: an attacker who studied the base can use it blindly. A
// gadget that moved but whose bytes still form a gadget somewhere in the
// variant is reported apart ("present anywhere"): usable only by an attacker
// who can read the variant's code first.
//
// With a ROP chain (ROPgadget --ropchain, built for the base), a variant
// breaks the chain when any gadget address of the chain holds other bytes.
//
// Relative survival (Relative.h) assumes an attacker who leaked where each
// function starts: a base gadget survives if the function of the same name
// holds the same bytes at the same offset.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DIVTOOL_AUDIT_AUDIT_H
#define DIVCC_DIVTOOL_AUDIT_AUDIT_H

#include "analysis/Gadgets.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace divcc {

struct AuditOptions {
  GadgetOptions Gadgets;
  /// Per-function report (needs the base's .symtab).
  bool Functions = true;
  /// Build a ROP chain for the base with this ROPgadget and check it in
  /// every variant; empty: no chain.
  std::string RopGadget;
  /// Show progress on stderr.
  bool Progress = false;
  /// Also compare every binary with every other (AuditResult::Matrix).
  bool Matrix = false;
  /// Also list the base's gadgets (AuditResult::List).
  bool List = false;
};

using KindCounts = std::array<uint64_t, NumGadgetKinds>;

struct BinarySummary {
  std::string Path;
  uint64_t CodeBytes = 0;
  uint64_t Gadgets = 0;       // gadget start addresses
  uint64_t UniqueGadgets = 0; // distinct gadget byte sequences
  KindCounts ByKind{};        // gadget start addresses per kind
  KindCounts UniqueByKind{};  // distinct byte sequences per kind
};

/// One gadget of the base, for AuditOptions::List.
struct ListedGadget {
  uint64_t Address;
  GadgetKind Kind;
  std::string Text; // its instructions, "pop {r4, pc}"
};

/// One gadget of the ROP chain built for the base.
struct ChainGadget {
  uint64_t Address;
  std::string Text; // as ROPgadget printed it
  std::vector<uint8_t> Bytes;
};

struct VariantResult {
  BinarySummary Binary;
  /// Base gadgets with the same bytes at the same address here.
  uint64_t Surviving = 0;
  KindCounts SurvivingByKind{};
  /// Distinct base gadget byte sequences that are a gadget anywhere here.
  uint64_t PresentAnywhere = 0;
  /// Chain gadgets still intact here (when a chain was built).
  unsigned ChainIntact = 0;
  /// Base gadgets in functions with the same bytes at the same offset in
  /// the function of the same name here (Relative.h).
  uint64_t RelativeSurviving = 0;
};

/// Relative survival over the population (Relative.h).
struct RelativeSummary {
  /// Where the base's functions come from: "symtab", "dynsym" or "none".
  std::string Symbols;
  /// Base gadgets in functions with a name of their own: the denominator.
  uint64_t InFunctions = 0;
  /// Base gadgets not counted: outside every sized function symbol, and in
  /// functions whose name the base defines more than once.
  uint64_t OutsideFunctions = 0, InAmbiguousFunctions = 0;
  /// [k]: counted base gadgets that survive relatively in exactly k
  /// variants, k = 0..n.
  std::vector<uint64_t> Histogram;
};

struct FunctionResult {
  std::string Name;
  uint64_t Address = 0, Size = 0;
  uint64_t Gadgets = 0;
  /// Of those, how many survive in at least one variant.
  uint64_t SurvivingSomewhere = 0;
  /// Mean over the variants of the share of the function's bytes that are
  /// not the same at the same address.
  double Moved = 0;
  /// Per variant: how far the function of the same name moved, or none if
  /// the variant has no such function.
  std::vector<std::optional<int64_t>> Shift;
};

/// What an attacker who studied binary A keeps in binary B: the shares of
/// A's gadgets at the same address with the same bytes in B (absolute), and
/// of A's gadgets in functions at the same offset in B's function of the
/// same name (relative, 0 when A has none in functions).
struct MatrixCell {
  double Absolute = 0, Relative = 0;
};

/// Every ordered pair of the audited binaries (the base first, then the
/// variants): the attacker holds Binaries[A], the target is Binaries[B].
struct SurvivalMatrix {
  std::vector<std::string> Binaries;
  std::vector<std::vector<MatrixCell>> Cells; ///< [A][B]; the diagonal is 1
};

struct AuditResult {
  GadgetOptions Gadgets;
  BinarySummary Base;
  std::vector<VariantResult> Variants;
  /// [k]: base gadgets that survive in exactly k variants, k = 0..n.
  std::vector<uint64_t> SurvivalHistogram;
  std::vector<FunctionResult> Functions;
  /// Base gadgets surviving in some variant that lie in no function symbol
  /// of the base: code divcc did not compile or cannot move, such as the
  /// PLT and the C runtime's start files (with the per-function report).
  uint64_t SurvivingOutsideFunctions = 0;
  bool ChainRequested = false;
  /// The chain ROPgadget built for the base; empty if it found none.
  std::vector<ChainGadget> Chain;
  RelativeSummary Relative;
  /// With AuditOptions::Matrix; empty otherwise.
  SurvivalMatrix Matrix;
  /// With AuditOptions::List, the base's gadgets by address; empty
  /// otherwise.
  std::vector<ListedGadget> List;

  /// Share of the base's gadgets that survive in variant \p V.
  double survival(size_t V) const;
  /// Share of the base's gadgets in functions that survive relatively in
  /// variant \p V (0 when no gadget lies in a function).
  double relativeSurvival(size_t V) const;
  /// The mean of relativeSurvival over the variants.
  double meanRelativeSurvival() const;
  /// Counted base gadgets that survive relatively in at least \p K variants.
  uint64_t relativeSurvivingInAtLeast(size_t K) const;
  /// Base gadgets that survive in at least \p K variants.
  uint64_t survivingInAtLeast(size_t K) const;
  /// Variants in which the whole chain is intact.
  unsigned chainsSurviving() const;
};

/// Audits \p Base against \p Variants (at least one).
llvm::Expected<AuditResult> runAudit(const std::string &Base,
                                     const std::vector<std::string> &Variants,
                                     const AuditOptions &Opts);

/// Output: a table for people, JSON for machines, a self-contained HTML page
/// with plots.
void printAuditTable(const AuditResult &R, llvm::raw_ostream &OS);
/// The base's gadgets (AuditOptions::List), one a line: address, kind and
/// instructions.
void printGadgetList(const AuditResult &R, llvm::raw_ostream &OS);
std::string auditJson(const AuditResult &R);
std::string auditHtml(const AuditResult &R);

/// The ROP chain ROPgadget builds for \p Binary, from its --ropchain output.
/// Fails if ROPgadget cannot be run; an empty result means ROPgadget found
/// no complete chain.
llvm::Expected<std::vector<ChainGadget>>
buildRopChain(const std::string &RopGadget, const std::string &Binary);

} // namespace divcc

#endif
