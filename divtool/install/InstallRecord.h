//===- InstallRecord.h - An install as a row of the registry --------------===//
//
// A distributor who lays out installs for its customers (divtool
// rerandomize --registry) keeps them in the population's registry, so that
// verify, identify and symbolize work on an install as on a variant built
// from source. An install's row (Registry.h) holds no secret:
//
//   id            INSTALL@ and 12 hex digits of the golden master's code
//                 SHA-256 (installRecordId), label the install id
//   source_dir    the golden master's real path, golden_code_sha256 its
//                 code's SHA-256 (which stripping debug information leaves
//                 unchanged)
//   build_command divtool rerandomize --install ID [--blocks] -o NAME
//                 GOLDEN: what lays it out again
//   tree          the directory of the output, artifact NAME in it
//   compiler      the llvm-bolt that laid it out
//
// "Rebuilding" an install lays it out again from its golden master, named
// by the row or given anew (a copy with or without debug information: the
// layout follows the code). With debug information, the install's updated
// debug information describes exactly the installed code.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DIVTOOL_INSTALL_INSTALLRECORD_H
#define DIVCC_DIVTOOL_INSTALL_INSTALLRECORD_H

#include "divtool/install/InstallLayout.h"
#include "registry/Registry.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace divcc {

/// The registry row of install \p InstallId of \p Golden, laid out with
/// \p Options into \p Output as \p Result says.
llvm::Expected<VariantRecord> installRecord(llvm::StringRef InstallId,
                                            llvm::StringRef Golden,
                                            llvm::StringRef Output,
                                            const InstallOptions &Options,
                                            const InstallResult &Result);

/// How \p Install was laid out, from its row: the install id, the golden
/// master (\p Golden if not empty, else the recorded one, which must have
/// the recorded code), the options, and the artifact's name.
struct RecordedInstall {
  std::string InstallId, Golden, Artifact;
  InstallOptions Options;
};
llvm::Expected<RecordedInstall> recordedInstall(const VariantRecord &Install,
                                                llvm::StringRef Golden);

} // namespace divcc

#endif
