"""Packaging of the intent package (docs/python-package.md, "pip install").

The Python sources are python/intent/**; the native extension intent._kir is built by kir's CMake
(target _kir) and taken from a build tree: $KIR_BUILD_DIR if set, else <repo>/build, else any
<repo>/build*/ holding an extension for this interpreter (the newest). With none, or with
KIR_PIP_CMAKE=1, CMake builds it into <repo>/build-pip (offline with Debian's packages; minutes).
"""

import glob
import os
import pathlib
import shutil
import subprocess
import sys
import sysconfig

from setuptools import find_namespace_packages, setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent
EXT = "_kir" + sysconfig.get_config_var("EXT_SUFFIX")  # _kir.cpython-311-x86_64-linux-gnu.so


def built_extension(build_dir):
    path = pathlib.Path(build_dir) / "python" / "intent" / EXT
    return path if path.is_file() else None


def cmake_build():
    build = REPO / "build-pip"
    cmake = shutil.which("cmake") or "cmake"
    configure = [cmake, "-S", str(REPO), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                 f"-DPython3_EXECUTABLE={sys.executable}", "-DKIR_PYTHON=ON"]
    if shutil.which("ninja"):
        configure += ["-G", "Ninja"]
    subprocess.run(configure, check=True)
    jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 2))
    subprocess.run([cmake, "--build", str(build), "--target", "_kir", "-j", jobs], check=True)
    found = built_extension(build)
    if not found:
        sys.exit(f"setup.py: CMake finished but {build}/python/intent/{EXT} is missing")
    return found


def find_extension():
    if os.environ.get("KIR_PIP_CMAKE") == "1":
        return cmake_build()
    if os.environ.get("KIR_BUILD_DIR"):
        found = built_extension(os.environ["KIR_BUILD_DIR"])
        if not found:
            sys.exit(f"setup.py: no {EXT} under $KIR_BUILD_DIR={os.environ['KIR_BUILD_DIR']}/python/intent "
                     f"(build it: cmake --build $KIR_BUILD_DIR --target _kir)")
        return found
    found = built_extension(REPO / "build")
    if found:
        return found
    candidates = sorted(glob.glob(str(REPO / "build*" / "python" / "intent" / EXT)), key=os.path.getmtime)
    if candidates:
        return pathlib.Path(candidates[-1])
    print(f"setup.py: no prebuilt {EXT} in {REPO}/build*; building it with CMake", file=sys.stderr)
    return cmake_build()


class BuildPyWithExtension(build_py):
    """build_py, plus the prebuilt extension copied into the package."""

    def run(self):
        super().run()
        ext = find_extension()
        target = pathlib.Path(self.build_lib) / "intent" / EXT
        target.parent.mkdir(parents=True, exist_ok=True)
        print(f"setup.py: using {ext}", file=sys.stderr)
        shutil.copy2(ext, target)
        # A RelWithDebInfo build's debug info is most of the file (about 50 MB); the wheel goes without.
        strip = shutil.which("strip")
        if strip and os.environ.get("KIR_PIP_KEEP_DEBUG") != "1":
            subprocess.run([strip, "--strip-debug", str(target)], check=True)


class BinaryDistribution(Distribution):
    """The wheel holds a native extension: platform-specific."""

    def has_ext_modules(self):
        return True


setup(
    # namespace-aware: intent/dsl has no __init__.py
    packages=find_namespace_packages(where=str(HERE), include=["intent", "intent.*"], exclude=["*.__pycache__"]),
    package_dir={"": "."},
    cmdclass={"build_py": BuildPyWithExtension},
    distclass=BinaryDistribution,
)
