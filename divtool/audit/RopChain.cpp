//===- RopChain.cpp - The exploit an attacker would build for the base ----===//
//
// ROPgadget --ropchain builds an execve("/bin/sh") chain from the base's
// gadgets and prints it as Python:
//
//   p += pack('<Q', 0x000000000040f112) # pop rsi ; ret
//   p += pack('<Q', 0x00000000004a60c0) # @ .data
//   p += pack('<Q', 0x4141414141414141) # padding
//
// The entries whose comment is an instruction sequence are gadget addresses;
// the others are data. An independent tool builds the chain so that the
// audit measures what a real attacker's tooling would produce.
//
//===----------------------------------------------------------------------===//

#include "divtool/audit/Audit.h"

#include "support/Diagnostics.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"

using namespace llvm;

namespace divcc {

/// Removes a temporary file when it goes out of scope.
struct TempFile {
  SmallString<128> Path;
  ~TempFile() {
    if (!Path.empty())
      sys::fs::remove(Path);
  }
};

Expected<std::vector<ChainGadget>>
buildRopChain(const std::string &RopGadget, const std::string &Binary) {
  ErrorOr<std::string> Program = sys::findProgramByName(RopGadget);
  if (!Program)
    return makeError("'" + RopGadget +
                     "' not found; --chain runs ROPgadget (Debian package "
                     "python3-ropgadget), install it or name it with "
                     "--ropgadget=PATH");
  TempFile Out, Err;
  if (sys::fs::createTemporaryFile("divtool-ropchain", "txt", Out.Path) ||
      sys::fs::createTemporaryFile("divtool-ropchain", "err", Err.Path))
    return makeError("cannot create a temporary file for ROPgadget's output");
  StringRef Args[] = {*Program, "--binary", Binary, "--ropchain"};
  std::optional<StringRef> Redirects[] = {StringRef(""), Out.Path.str(),
                                          Err.Path.str()};
  std::string ExecError;
  int Status = sys::ExecuteAndWait(*Program, Args, std::nullopt, Redirects, 0,
                                   0, &ExecError);
  if (Status != 0) {
    auto ErrText = MemoryBuffer::getFile(Err.Path);
    // ROPgadget's last line of complaint says what went wrong.
    StringRef Complaint = ErrText ? (*ErrText)->getBuffer().trim() : "";
    std::string Detail =
        ErrText ? Complaint.substr(Complaint.rfind('\n') + 1).str()
                : ExecError;
    return makeError("ROPgadget failed on '" + Binary + "'" +
                     (Detail.empty() ? "" : ": " + Detail));
  }
  auto Text = MemoryBuffer::getFile(Out.Path);
  if (!Text)
    return makeError("cannot read ROPgadget's output");

  std::vector<ChainGadget> Chain;
  Regex Entry("^[ \t]*p \\+= pack\\('<Q', 0x([0-9a-fA-F]+)\\) # (.*)$");
  bool InChain = false;
  SmallVector<StringRef, 3> Match;
  for (StringRef Line : split((*Text)->getBuffer(), '\n')) {
    if (Line.contains("Build the ROP chain"))
      InChain = true;
    if (!InChain || !Entry.match(Line, &Match))
      continue;
    StringRef Comment = Match[2].trim();
    if (Comment.starts_with("@") || Comment.starts_with("padding"))
      continue;
    uint64_t Address;
    if (Match[1].getAsInteger(16, Address))
      continue;
    Chain.push_back({Address, Comment.str(), {}});
  }
  return Chain;
}

} // namespace divcc
