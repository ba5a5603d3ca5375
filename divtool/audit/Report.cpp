//===- Report.cpp - divtool audit's table and JSON ------------------------===//
//
// The table is for a person at a terminal: one line per variant, then the
// population view and the functions where gadgets survive. The JSON holds
// everything the table shows and the per-function data, with stable field
// names (documented in docs/manual.md) for scripts and CI gates.
//
//===----------------------------------------------------------------------===//

#include "divtool/audit/Audit.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <nlohmann/json.hpp>

#include <algorithm>

using namespace llvm;

namespace divcc {

static std::string percent(double Share) {
  return formatv("{0:F2}%", Share * 100).str();
}

static double share(uint64_t Part, uint64_t Whole) {
  return Whole ? double(Part) / double(Whole) : 0.0;
}

static void printKinds(const KindCounts &Counts, raw_ostream &OS) {
  for (unsigned K = 0; K < NumGadgetKinds; ++K)
    OS << (K ? ", " : "") << gadgetKindName(GadgetKind(K)) << " "
       << Counts[K];
}

// The survival matrix: one row per binary an attacker holds, one column
// per target, binaries numbered as listed below the matrices.
static void printMatrix(const SurvivalMatrix &M, raw_ostream &OS) {
  if (M.Binaries.empty())
    return;
  for (bool Relative : {false, true}) {
    OS << "\n"
       << (Relative ? "relative survival" : "survival")
       << " matrix (row: the binary an attacker holds, column: the "
          "target):\n"
       << right_justify("", 6);
    for (size_t B = 0; B < M.Binaries.size(); ++B)
      OS << right_justify("#" + std::to_string(B), 9);
    OS << "\n";
    for (size_t A = 0; A < M.Binaries.size(); ++A) {
      OS << right_justify("#" + std::to_string(A), 6);
      for (size_t B = 0; B < M.Binaries.size(); ++B) {
        const MatrixCell &C = M.Cells[A][B];
        OS << right_justify(
            A == B ? "-" : percent(Relative ? C.Relative : C.Absolute), 9);
      }
      OS << "\n";
    }
  }
  for (size_t B = 0; B < M.Binaries.size(); ++B)
    OS << "  #" << B << (B ? "  " : " (base)  ") << M.Binaries[B] << "\n";
}

// Relative survival's denominator and population view, under the table.
static void printRelative(const AuditResult &R, raw_ostream &OS) {
  const RelativeSummary &Rel = R.Relative;
  OS << "relative: same bytes at the same offset in the function of the "
        "same name ("
     << (Rel.Symbols == "none" ? "no function symbols"
                               : "functions from ." + Rel.Symbols)
     << "), of " << Rel.InFunctions << " base gadgets in functions; not "
     << "counted: " << Rel.OutsideFunctions << " outside any function, "
     << Rel.InAmbiguousFunctions
     << " in functions whose name is defined more than once\n";
  OS << "base gadgets surviving relatively in at least k of "
     << R.Variants.size() << " variants:";
  for (size_t K = 1; K < Rel.Histogram.size(); ++K)
    OS << "  k=" << K << ": " << R.relativeSurvivingInAtLeast(K);
  OS << "\n";
}

// One line a gadget, as ROPgadget prints them: "0x00010e34 : pop {r4, pc}",
// with the kind.
void printGadgetList(const AuditResult &R, raw_ostream &OS) {
  OS << "\ngadgets of the base:\n";
  for (const ListedGadget &G : R.List)
    OS << format("0x%08" PRIx64, G.Address) << " " << gadgetKindName(G.Kind)
       << " : " << G.Text << "\n";
}

void printAuditTable(const AuditResult &R, raw_ostream &OS) {
  OS << "base: " << R.Base.Path << "\n  " << R.Base.CodeBytes
     << " bytes of code, " << R.Base.Gadgets << " gadgets (";
  printKinds(R.Base.ByKind, OS);
  OS << "), " << R.Base.UniqueGadgets << " unique; at most "
     << R.Gadgets.MaxInstructions << " instructions"
     << (R.Gadgets.Reach ? formatv(", {0} bytes", R.Gadgets.Reach).str() : "")
     << "\n\n";

  size_t Width = 7;
  for (const VariantResult &V : R.Variants)
    Width = std::max(Width, V.Binary.Path.size());
  OS << left_justify("variant", Width) << "  " << right_justify("gadgets", 9)
     << right_justify("surviving", 11) << right_justify("survival", 10)
     << right_justify("moved but present", 19);
  if (R.ChainRequested)
    OS << right_justify("chain", 10);
  OS << right_justify("relative", 10) << "\n";
  for (size_t I = 0; I < R.Variants.size(); ++I) {
    const VariantResult &V = R.Variants[I];
    OS << left_justify(V.Binary.Path, Width) << "  "
       << right_justify(std::to_string(V.Binary.Gadgets), 9)
       << right_justify(std::to_string(V.Surviving), 11)
       << right_justify(percent(R.survival(I)), 10)
       << right_justify(
              percent(share(V.PresentAnywhere, R.Base.UniqueGadgets)), 19);
    if (R.ChainRequested)
      OS << right_justify(formatv("{0}/{1}", V.ChainIntact, R.Chain.size()).str(),
                          10);
    OS << right_justify(percent(R.relativeSurvival(I)), 10) << "\n";
  }

  OS << "\nbase gadgets surviving in at least k of " << R.Variants.size()
     << " variants:";
  for (size_t K = 1; K < R.SurvivalHistogram.size(); ++K)
    OS << "  k=" << K << ": " << R.survivingInAtLeast(K);
  OS << "\n";
  printRelative(R, OS);
  printMatrix(R.Matrix, OS);
  if (R.ChainRequested) {
    if (R.Chain.empty())
      OS << "ROP chain: ROPgadget found no complete chain for the base\n";
    else
      OS << "ROP chain (ROPgadget, " << R.Chain.size()
         << " gadget addresses): intact in " << R.chainsSurviving() << " of "
         << R.Variants.size() << " variants\n";
  }

  std::vector<const FunctionResult *> Leaking;
  for (const FunctionResult &F : R.Functions)
    if (F.SurvivingSomewhere)
      Leaking.push_back(&F);
  if (R.Functions.empty())
    return;
  std::stable_sort(Leaking.begin(), Leaking.end(), [](auto *A, auto *B) {
    return A->SurvivingSomewhere > B->SurvivingSomewhere;
  });
  OS << "\nsurviving gadgets outside any function symbol (PLT, C runtime "
        "start files): "
     << R.SurvivingOutsideFunctions << "\n";
  OS << "functions: " << R.Functions.size() << ", " << Leaking.size()
     << " with gadgets surviving in some variant";
  if (Leaking.empty()) {
    OS << "\n";
    return;
  }
  OS << "; the first " << std::min<size_t>(10, Leaking.size()) << ":\n";
  OS << "  " << right_justify("gadgets", 8) << right_justify("surviving", 11)
     << right_justify("moved", 9) << "  function\n";
  for (size_t I = 0; I < Leaking.size() && I < 10; ++I)
    OS << "  " << right_justify(std::to_string(Leaking[I]->Gadgets), 8)
       << right_justify(std::to_string(Leaking[I]->SurvivingSomewhere), 11)
       << right_justify(percent(Leaking[I]->Moved), 9) << "  "
       << Leaking[I]->Name << "\n";
}

static nlohmann::json kindsJson(const KindCounts &Counts) {
  nlohmann::json J;
  for (unsigned K = 0; K < NumGadgetKinds; ++K)
    J[gadgetKindName(GadgetKind(K))] = Counts[K];
  return J;
}

static nlohmann::json binaryJson(const BinarySummary &B) {
  return {{"path", B.Path},
          {"code_bytes", B.CodeBytes},
          {"gadgets", B.Gadgets},
          {"unique_gadgets", B.UniqueGadgets},
          {"by_kind", kindsJson(B.ByKind)},
          {"unique_by_kind", kindsJson(B.UniqueByKind)}};
}

std::string auditJson(const AuditResult &R) {
  nlohmann::json J;
  J["gadget_options"] = {{"max_instructions", R.Gadgets.MaxInstructions},
                         {"reach", R.Gadgets.Reach}};
  J["base"] = binaryJson(R.Base);
  J["variants"] = nlohmann::json::array();
  for (size_t I = 0; I < R.Variants.size(); ++I) {
    const VariantResult &V = R.Variants[I];
    nlohmann::json VJ = binaryJson(V.Binary);
    VJ["surviving"] = V.Surviving;
    VJ["surviving_by_kind"] = kindsJson(V.SurvivingByKind);
    VJ["survival"] = R.survival(I);
    VJ["present_anywhere"] = V.PresentAnywhere;
    VJ["present_anywhere_share"] =
        share(V.PresentAnywhere, R.Base.UniqueGadgets);
    if (R.ChainRequested)
      VJ["chain_intact"] = V.ChainIntact;
    VJ["relative_surviving"] = V.RelativeSurviving;
    VJ["relative_survival"] = R.relativeSurvival(I);
    VJ["gadgets_in_functions"] = R.Relative.InFunctions;
    J["variants"].push_back(std::move(VJ));
  }
  J["survival_histogram"] = R.SurvivalHistogram;
  nlohmann::json AtLeast = nlohmann::json::array();
  for (size_t K = 0; K < R.SurvivalHistogram.size(); ++K)
    AtLeast.push_back(R.survivingInAtLeast(K));
  J["surviving_in_at_least"] = AtLeast;
  nlohmann::json RelativeAtLeast = nlohmann::json::array();
  for (size_t K = 0; K < R.Relative.Histogram.size(); ++K)
    RelativeAtLeast.push_back(R.relativeSurvivingInAtLeast(K));
  J["relative"] = {
      {"symbols", R.Relative.Symbols},
      {"gadgets_in_functions", R.Relative.InFunctions},
      {"gadgets_outside_functions", R.Relative.OutsideFunctions},
      {"gadgets_in_ambiguous_functions", R.Relative.InAmbiguousFunctions},
      {"relative_survival", R.meanRelativeSurvival()},
      {"survival_histogram", R.Relative.Histogram},
      {"surviving_in_at_least", RelativeAtLeast}};
  if (R.ChainRequested) {
    nlohmann::json Gadgets = nlohmann::json::array();
    for (const ChainGadget &C : R.Chain)
      Gadgets.push_back({{"address", C.Address}, {"gadget", C.Text}});
    J["chain"] = {{"gadgets", Gadgets},
                  {"complete", !R.Chain.empty()},
                  {"variants_with_chain_intact", R.chainsSurviving()}};
  }
  if (!R.Matrix.Binaries.empty()) {
    nlohmann::json Absolute = nlohmann::json::array(),
                   Relative = nlohmann::json::array();
    for (const std::vector<MatrixCell> &Row : R.Matrix.Cells) {
      Absolute.push_back(nlohmann::json::array());
      Relative.push_back(nlohmann::json::array());
      for (const MatrixCell &C : Row) {
        Absolute.back().push_back(C.Absolute);
        Relative.back().push_back(C.Relative);
      }
    }
    J["matrix"] = {{"binaries", R.Matrix.Binaries},
                   {"survival", Absolute},
                   {"relative_survival", Relative}};
  }
  if (!R.Functions.empty())
    J["surviving_outside_functions"] = R.SurvivingOutsideFunctions;
  if (!R.List.empty()) {
    J["gadget_list"] = nlohmann::json::array();
    for (const ListedGadget &G : R.List)
      J["gadget_list"].push_back({{"address", G.Address},
                                  {"kind", gadgetKindName(G.Kind)},
                                  {"instructions", G.Text}});
  }
  J["functions"] = nlohmann::json::array();
  for (const FunctionResult &F : R.Functions) {
    nlohmann::json Shift = nlohmann::json::array();
    for (const std::optional<int64_t> &S : F.Shift)
      Shift.push_back(S ? nlohmann::json(*S) : nlohmann::json());
    J["functions"].push_back({{"name", F.Name},
                              {"address", F.Address},
                              {"size", F.Size},
                              {"gadgets", F.Gadgets},
                              {"surviving_somewhere", F.SurvivingSomewhere},
                              {"moved", F.Moved},
                              {"shift", Shift}});
  }
  // Symbol names need not be UTF-8; JSON must be.
  return J.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
         "\n";
}

} // namespace divcc
