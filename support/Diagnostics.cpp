//===- Diagnostics.cpp - Errors and warnings under the program's name -----===//

#include "support/Diagnostics.h"

#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace divcc {
namespace {

/// See alreadyReportedError().
class AlreadyReported : public ErrorInfo<AlreadyReported> {
public:
  static char ID;
  void log(raw_ostream &OS) const override {
    OS << "(reported above)";
  }
  std::error_code convertToErrorCode() const override {
    return inconvertibleErrorCode();
  }
};

char AlreadyReported::ID = 0;

} // namespace

static std::string &nameStorage() {
  static std::string Name = "divcc";
  return Name;
}

static std::string &commandStorage() {
  static std::string Name;
  return Name;
}

void setProgramName(StringRef Name) { nameStorage() = Name.str(); }

StringRef programName() { return nameStorage(); }

void setCommandName(StringRef Name) { commandStorage() = Name.str(); }

StringRef commandName() {
  return commandStorage().empty() ? programName() : commandStorage();
}

Error makeError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

Error makeError(const Twine &What, std::error_code EC) {
  return createStringError(EC, What + ": " + EC.message());
}

std::string formatDiagnostic(Severity S, const Twine &Message) {
  return (programName() + (S == Severity::Error ? ": error: " : ": warning: ") +
          Message)
      .str();
}

void printError(Error E) {
  handleAllErrors(
      std::move(E), [](const AlreadyReported &) {},
      [](const ErrorInfoBase &Info) { printError(Info.message()); });
}

Error alreadyReportedError() { return make_error<AlreadyReported>(); }

int exitCodeFor(Error E) {
  if (!E)
    return 0;
  return reportError(std::move(E));
}

void printNote(const Twine &Message) { noteStream() << Message << "\n"; }

raw_ostream &noteStream() { return errs() << commandName() << ": "; }

void printError(const Twine &Message) {
  errs() << formatDiagnostic(Severity::Error, Message) << "\n";
}

void printWarning(const Twine &Message) {
  errs() << formatDiagnostic(Severity::Warning, Message) << "\n";
}

int reportError(Error E) {
  printError(std::move(E));
  return 1;
}

} // namespace divcc
