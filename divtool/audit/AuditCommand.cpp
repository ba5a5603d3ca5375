//===- AuditCommand.cpp - `divtool audit`: options and outputs ------------===//

#include "divtool/CommandLine.h"
#include "divtool/Subcommands.h"
#include "divtool/audit/Audit.h"
#include "support/AtomicOutput.h"

#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>

using namespace llvm;

namespace divcc {
namespace {

struct AuditCommandLine {
  std::string Base;
  std::vector<std::string> Variants;
  AuditOptions Opts;
  bool NoFunctions = false;
  bool Chain = false;
  std::string RopGadget = "ROPgadget";
  bool Json = false;
  std::string Html;
  std::optional<bool> Progress;
  std::optional<double> MaxSurvival;
  std::optional<double> MaxRelativeSurvival;
};

int runAuditCommand(const AuditCommandLine &Line, const DivccEnvironment &) {
  AuditCommandLine C = Line;
  C.Opts.Functions = !C.NoFunctions;
  if (C.Chain)
    C.Opts.RopGadget = C.RopGadget;
  C.Opts.Progress =
      C.Progress.value_or(sys::Process::StandardErrHasColors() ||
                          sys::Process::StandardErrIsDisplayed());
  Expected<AuditResult> R = runAudit(C.Base, C.Variants, C.Opts);
  if (!R)
    return reportError(R.takeError());

  if (C.Json)
    outs() << auditJson(*R);
  else
    printAuditTable(*R, outs());
  if (!C.Json && !R->List.empty())
    printGadgetList(*R, outs());
  if (!C.Html.empty())
    if (Error E = writeFileAtomically(C.Html, auditHtml(*R)))
      return reportError(makeError("cannot write '" + C.Html +
                                   "': " + toString(std::move(E))));

  if (C.MaxSurvival) {
    for (size_t V = 0; V < R->Variants.size(); ++V)
      if (R->survival(V) * 100 > *C.MaxSurvival) {
        noteStream() << R->Variants[V].Binary.Path << ": "
               << format("%.2f", R->survival(V) * 100)
               << "% of the base's gadgets survive, more than --max-survival="
               << format("%g", *C.MaxSurvival) << "\n";
        return 3;
      }
  }
  if (C.MaxRelativeSurvival) {
    if (!R->Relative.InFunctions)
      return reportError(makeError(
          "--max-relative-survival: no gadget of '" + C.Base +
          "' lies in a sized function symbol (.symtab or .dynsym), so "
          "relative survival cannot be measured"));
    for (size_t V = 0; V < R->Variants.size(); ++V)
      if (R->relativeSurvival(V) * 100 > *C.MaxRelativeSurvival) {
        noteStream() << R->Variants[V].Binary.Path << ": "
               << format("%.2f", R->relativeSurvival(V) * 100)
               << "% of the base's gadgets in functions survive at their "
                  "offset in the function, more than --max-relative-survival="
               << format("%g", *C.MaxRelativeSurvival) << "\n";
        return 3;
      }
  }
  return 0;
}

} // namespace

void addAuditSubcommand(CLI::App &Divtool, RunSubcommand &Run) {
  auto C = std::make_shared<AuditCommandLine>();
  CLI::App *Audit = Divtool.add_subcommand(
      "audit", "Count code-reuse gadgets and how many survive across variants");
  const char *Description =
      "Finds the code-reuse gadgets of BASE (sequences of instructions that "
      "end in a return, an indirect jump or call, or a system call, starting "
      "at any byte) and reports, for each VARIANT, the share of them found "
      "at the same address with the same bytes: the gadgets an attacker who "
      "studied BASE can still use blindly. Relative survival is the share of "
      "BASE's gadgets inside functions found at the same offset from the "
      "start of the function of the same name, with the same bytes: what an "
      "attacker keeps after leaking one code pointer per function. Functions "
      "are the sized STT_FUNC symbols of .symtab (of .dynsym without one) "
      "but the linker's branch stubs (lld's thunks, GNU ld's veneers), to "
      "which no pointer is ever held, as to PLT entries; gadgets outside "
      "them, and in functions whose name BASE defines more than once, are "
      "not counted. BASE and VARIANTs are ELF "
      "executables or shared objects (x86-64, AArch64, RISC-V 64, 32-bit "
      "ARM: Thumb and ARM-state code told apart by the mapping symbols).";
  Audit->add_option("base", C->Base, "The binary an attacker studied")
      ->required();
  Audit->add_option("variants", C->Variants,
                    "Variants of it to check (one or more)")
      ->required();
  Audit->add_option("--depth", C->Opts.Gadgets.MaxInstructions,
                    "At most N instructions per gadget, the last included")
      ->default_val(5)
      ->check(CLI::Range(1, 64));
  Audit->add_option("--reach", C->Opts.Gadgets.Reach,
                    "Gadgets start at most BYTES before their last "
                    "instruction (0: no limit; ROPgadget's --depth D is "
                    "--reach D-1)")
      ->default_val(0)
      ->check(CLI::Range(0, 1024));
  Audit->add_flag("--no-functions", C->NoFunctions,
                  "Skip the per-function report (needed for stripped binaries)");
  Audit->add_flag("--chain", C->Chain,
                  "Build a ROP chain for BASE with ROPgadget and check it in "
                  "each variant");
  Audit->add_option("--ropgadget", C->RopGadget,
                    "The ROPgadget program --chain runs")
      ->default_val("ROPgadget");
  Audit->add_flag("--matrix", C->Opts.Matrix,
                  "Also compare every binary with every other: what an "
                  "attacker who holds one keeps in each of the others "
                  "(absolute and relative survival)");
  Audit->add_flag("--list", C->Opts.List,
                  "Also list BASE's gadgets, one a line: address, kind "
                  "(ret, jop, sys) and instructions (in the JSON: "
                  "gadget_list)");
  Audit->add_flag("--json", C->Json,
                  "Print the results as JSON instead of a table");
  Audit->add_option("--html", C->Html,
                    "Also write a self-contained HTML report with plots");
  addProgressFlag(*Audit, C->Progress,
                  "Show progress on stderr (default: when it is a terminal)");
  Audit->add_option("--max-survival", C->MaxSurvival,
                    "Exit with status 3 if more than PERCENT of BASE's "
                    "gadgets survive in any variant")
      ->check(CLI::Range(0.0, 100.0));
  Audit->add_option("--max-relative-survival", C->MaxRelativeSurvival,
                    "Exit with status 3 if more than PERCENT of BASE's "
                    "gadgets in functions survive at their offset in the "
                    "function in any variant")
      ->check(CLI::Range(0.0, 100.0));
  Audit->footer(std::string(Description) +
                "\n\nExit status: 0 on success, 1 on bad input, 2 on a usage "
                "error, 3 if --max-survival or --max-relative-survival is "
                "exceeded.");
  runWhenChosen(*Audit, Run, C, runAuditCommand);
}

} // namespace divcc
