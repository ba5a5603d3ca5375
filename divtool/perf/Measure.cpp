//===- Measure.cpp - `divtool perf`: building and timing the variants -----===//

#include "divtool/CommandLine.h"
#include "divtool/perf/Perf.h"
#include "divtool/population/Population.h"
#include "divtool/population/VariantBuild.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <sys/resource.h>

using namespace llvm;

namespace divcc {

Error buildVariants(const PerfOptions &C, BuildResult &B, const MasterKey &Key,
                    StringRef Out, const DivccEnvironment &Env) {
  PopulationOptions O;
  O.Count = C.Variants;
  O.Out = Out.str();
  O.SeedFile = C.SeedFile;
  O.Jobs = C.Jobs;
  O.Source = B.Source;
  O.Progress = C.Progress;
  O.Command = B.Command;
  O.Tool = "divtool perf" + (B.Name == "build" ? "" : " [" + B.Name + "]");
  errs() << O.Tool << ": building " << C.Variants << " variants with '"
         << shellJoin(B.Command) << "'"
         << (B.Source.empty() ? "" : " from '" + B.Source + "'") << "\n";
  Expected<PopulationBuilt> Built = buildPopulation(O, Key, Env);
  if (!Built)
    return Built.takeError();
  if (Built->Failed)
    return makeError(Twine(Built->Failed) + " of " + Twine(C.Variants) +
                     " variants of " +
                     (B.Name == "build" ? "the build" : "build " + B.Name) +
                     " failed to build; their trees and logs are in " +
                     Built->Out + "/variants");
  B.Out = Built->Out;
  B.RegistryPath = Built->RegistryPath;
  Expected<OpenPopulation> Pop = openPopulation(B.RegistryPath, Key);
  if (!Pop)
    return Pop.takeError();
  for (const std::string &Id : Built->Ids) {
    Expected<VariantRecord> V = Pop->Reg.builtVariant(Id);
    if (!V)
      return V.takeError();
    B.Variants.push_back(std::move(*V));
  }
  for (MetricData &D : B.Data)
    D.Runs.resize(B.Variants.size());
  return Error::success();
}

bool sameArtifacts(const BuildResult &A, const BuildResult &B,
                   const MasterKey &Key) {
  Expected<OpenPopulation> PA = openPopulation(A.RegistryPath, Key);
  Expected<OpenPopulation> PB = openPopulation(B.RegistryPath, Key);
  if (!PA || !PB) {
    consumeError(PA.takeError());
    consumeError(PB.takeError());
    return false;
  }
  for (size_t I = 0; I < A.Variants.size(); ++I) {
    auto FA = PA->Reg.artifacts(A.Variants[I].Id);
    auto FB = PB->Reg.artifacts(B.Variants[I].Id);
    if (!FA || !FB) {
      consumeError(FA.takeError());
      consumeError(FB.takeError());
      return false;
    }
    if (FA->size() != FB->size())
      return false;
    for (size_t J = 0; J < FA->size(); ++J)
      if ((*FA)[J].Path != (*FB)[J].Path || (*FA)[J].Sha256 != (*FB)[J].Sha256)
        return false;
  }
  return true;
}

static double seconds(const struct timeval &T) {
  return double(T.tv_sec) + double(T.tv_usec) * 1e-6;
}

/// The instructions counted in the cachegrind output files of \p Dir, one
/// per process: the sum of their "summary:" lines.
static Expected<double> countedInstructions(StringRef Dir, StringRef Log) {
  double Total = 0;
  unsigned Files = 0;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
        MemoryBuffer::getFile(It->path());
    if (!Buf)
      return makeError("cannot read valgrind's output '" + It->path() +
                       "': " + Buf.getError().message());
    bool Found = false;
    for (StringRef Rest = (*Buf)->getBuffer(); !Rest.empty() && !Found;) {
      StringRef Line;
      std::tie(Line, Rest) = Rest.split('\n');
      if (!Line.consume_front("summary:"))
        continue;
      unsigned long long N = 0;
      if (Line.trim().split(' ').first.getAsInteger(10, N))
        return makeError("valgrind's output '" + It->path() +
                         "' has a bad summary line: " + Line.trim());
      Total += double(N);
      Found = true;
    }
    if (!Found)
      return makeError("valgrind's output '" + It->path() +
                       "' has no summary line");
    ++Files;
  }
  if (EC || !Files)
    return makeError("valgrind wrote no instruction counts in '" + Dir +
                     "'; see " + Log);
  return Total;
}

/// Runs the benchmark once in variant \p V's tree; returns its value by
/// metric: CPU and wall times in seconds, or (under valgrind) the
/// instructions executed.
static Expected<std::array<double, NumMetrics>>
runOnce(const PerfOptions &C, const PerfResult &R, const VariantRecord &V,
        ArrayRef<std::string> Env) {
  std::string Dir = sys::path::parent_path(V.Tree).str();
  std::string Log = Dir + "/bench.log";
  std::vector<std::string> Command = C.Bench;
  std::string CountDir = Dir + "/cachegrind";
  bool Count = R.Chosen == Metric::Instructions;
  if (Count) {
    // A file per process (%p), children included; only instructions are
    // counted (no cache or branch simulation).
    sys::fs::remove_directories(CountDir);
    if (std::error_code EC = sys::fs::create_directories(CountDir))
      return makeError("cannot create '" + CountDir + "': " + EC.message());
    Command = {R.Valgrind, "--tool=cachegrind", "--cache-sim=no",
               "--branch-sim=no", "--trace-children=yes", "-q",
               "--cachegrind-out-file=" + CountDir + "/out.%p"};
    Command.insert(Command.end(), C.Bench.begin(), C.Bench.end());
  }
  auto Start = std::chrono::steady_clock::now();
  Expected<pid_t> Pid =
      startProcess(Command, V.Tree, Env, Log, Log,
                   /*OwnProcessGroup=*/false, "the benchmark");
  if (!Pid)
    return Pid.takeError();
  struct rusage Usage = {};
  int Status = *waitProcess(*Pid, /*Block=*/true, &Usage);
  double Wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  if (Status != 0)
    return makeError("the benchmark failed in " + V.Id + "'s tree '" + V.Tree +
                     "' (" + describeWaitStatus(Status) +
                     "); the last lines of " + Log + ":\n" +
                     StringRef(lastLines(Log, 10)).rtrim('\n'));
  std::array<double, NumMetrics> Values = {};
  Values[size_t(Metric::Cpu)] =
      seconds(Usage.ru_utime) + seconds(Usage.ru_stime);
  Values[size_t(Metric::Wall)] = Wall;
  if (Count) {
    Expected<double> N = countedInstructions(CountDir, Log);
    if (!N)
      return N.takeError();
    Values[size_t(Metric::Instructions)] = *N;
  }
  return Values;
}

Error measure(const PerfOptions &C, PerfResult &R) {
  std::vector<std::string> Env = environmentWith({EnvSeedFile}, {});
  bool Terminal = C.Progress.value_or(sys::Process::StandardErrIsDisplayed());
  size_t K = R.Builds.front().Variants.size();
  unsigned Rounds = C.Warmup + C.Runs;
  size_t PerRound = K * R.Builds.size();
  auto Start = std::chrono::steady_clock::now();
  errs() << "divtool perf: running '" << shellJoin(C.Bench) << "' "
         << (C.Warmup ? Twine(C.Warmup) + " + " : Twine()) << C.Runs << " time"
         << (Rounds == 1 ? "" : "s") << " in each of " << PerRound
         << " variant trees" << (C.Warmup ? " (warm-up first)" : "")
         << (R.Chosen == Metric::Instructions ? ", under valgrind" : "")
         << "\n";
  for (unsigned Round = 0; Round < Rounds; ++Round) {
    bool Warm = Round < C.Warmup;
    for (size_t I = 0; I < K; ++I)
      for (size_t J = 0; J < R.Builds.size(); ++J) {
        // Alternate which build goes first, variant by variant and round by
        // round.
        size_t Which = (I + Round) % 2 ? R.Builds.size() - 1 - J : J;
        BuildResult &B = R.Builds[Which];
        if (Terminal) {
          errs() << "\r\033[Kdivtool perf: round " << Round + 1 << "/" << Rounds
                 << (Warm ? " (warm-up)" : "") << ", " << B.Variants[I].Id
                 << (B.Name == "build" ? "" : " of " + B.Name);
          errs().flush();
        }
        Expected<std::array<double, NumMetrics>> Values =
            runOnce(C, R, B.Variants[I], Env);
        if (!Values) {
          if (Terminal)
            errs() << "\r\033[K";
          return Values.takeError();
        }
        if (Warm)
          continue;
        for (Metric M : R.Measured)
          B.of(M).Runs[I].push_back((*Values)[size_t(M)]);
      }
    if (!Terminal && !Warm && Rounds > 1)
      errs() << "divtool perf: round " << Round + 1 << "/" << Rounds
             << " done, "
             << int(std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - Start)
                        .count())
             << " s elapsed\n";
  }
  if (Terminal)
    errs() << "\r\033[K";
  for (BuildResult &B : R.Builds)
    for (Metric M : R.Measured) {
      MetricData &D = B.of(M);
      for (size_t I = 0; I < K; ++I)
        D.Medians.push_back(median(D.Runs[I]));
      D.Sum = summarize(D.Medians, C.Confidence);
    }
  if (R.Builds.size() == 2)
    R.Welch = welchTest(R.Builds[0].medians(R.Chosen),
                        R.Builds[1].medians(R.Chosen), C.Confidence);
  return Error::success();
}

} // namespace divcc
