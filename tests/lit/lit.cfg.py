# lit configuration for divcc's compiler tests: one feature per file, RUN
# lines that call divcc and clang-19, FileCheck for the output.
import os
import lit.formats

config.name = "divcc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".c", ".cpp", ".ll", ".s", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.divcc_build_dir, "tests", "lit")

config.substitutions.append(("%divcc", os.path.join(config.divcc_build_dir, "divcc")))
config.substitutions.append(("%divxx", os.path.join(config.divcc_build_dir, "div++")))
config.substitutions.append(("%divtool", os.path.join(config.divcc_build_dir, "divtool")))
config.substitutions.append(("%clang", config.clang))
config.substitutions.append(("%FileCheck", config.filecheck))
config.substitutions.append(("%not", config.not_tool))
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", "/usr/bin:/bin")])
# A seed in the environment would change every test's output.
config.environment.pop("DIVCC_SEED_FILE", None)
