#!/bin/bash -eu
# Builds kir's libFuzzer targets into $OUT with the compilers and flags ClusterFuzzLite / OSS-Fuzz
# provide ($CC, $CXX, $CFLAGS, $CXXFLAGS carry the sanitizer and coverage flags,
# $LIB_FUZZING_ENGINE links libFuzzer). docs/fuzzing.md "Scale-out" describes the targets.
#
# The targets link the distribution's shared libraries (MPFR, GMP, yaml-cpp, fmt, ...); they are
# copied next to the binaries ($OUT/lib, found through an $ORIGIN rpath) because the runner
# image has only what is in $OUT. fuzz_differential also needs a C++ compiler at run time (the
# generated kernels are compiled by it): it is shipped only with KIR_CFLITE_DIFFERENTIAL=1, for
# a runner that has one (see docs/fuzzing.md).
# The distribution's C++ libraries (yaml-cpp, fmt, rapidcheck) are built against libstdc++: the
# OSS-Fuzz default -stdlib=libc++ would not link with them (fine for ASan and UBSan; MSan would
# need every library instrumented, which is why project.yaml lists only those two).
CXXFLAGS=${CXXFLAGS//-stdlib=libc++/}
build=$WORK/kir-build
cmake -S "$SRC/kir" -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
  -DCMAKE_EXE_LINKER_FLAGS="-Wl,-rpath,'\$ORIGIN/lib'" \
  -DKIR_FUZZ=ON -DKIR_FUZZ_ONLY=ON -DKIR_FUZZ_SANITIZE=OFF -DKIR_WERROR=OFF -DKIR_MUTANTS=OFF \
  -DKIR_FUZZ_ENGINE="$LIB_FUZZING_ENGINE"
targets=(fuzz_parse_verify fuzz_spec)
[[ ${KIR_CFLITE_DIFFERENTIAL:-0} == 1 ]] && targets+=(fuzz_differential)
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}"

mkdir -p "$OUT/lib"
for t in "${targets[@]}"; do
  cp "$build/fuzz/$t" "$OUT/"
  # Shared libraries outside the C/C++ runtime go with the binary.
  ldd "$OUT/$t" | awk '$3 ~ /^\// { print $3 }' |
    grep -v -E '/(libc|libm|libdl|librt|libpthread|libstdc\+\+|libgcc_s|ld-linux[^/]*)\.so' |
    xargs -r cp -L -t "$OUT/lib/"
done

# Seed corpora (zip files named <target>_seed_corpus.zip are picked up by the runner).
cd "$SRC/kir"
find tests/kir examples -name '*.kir' -print0 | xargs -0 zip -q -j "$OUT/fuzz_parse_verify_seed_corpus.zip"
find specs tests/specs -name '*.yaml' -print0 | xargs -0 zip -q -j "$OUT/fuzz_spec_seed_corpus.zip"
if [[ " ${targets[*]} " == *" fuzz_differential "* ]]; then
  seeds=$WORK/differential-seeds
  mkdir -p "$seeds"
  # Generator seed (bytes 0..7), size (byte 8), steps (byte 9): fuzz/fuzz_differential.cpp.
  for i in 1 2 3 4 5 6 7 8; do
    printf "\\x$i\\x0$i\\x00\\x00\\x00\\x00\\x00\\x00\\x$((i * 11))\\x0$i" >"$seeds/seed-$i"
  done
  zip -q -j "$OUT/fuzz_differential_seed_corpus.zip" "$seeds"/*
  # One case compiles a kernel (about a second): a generous per-input timeout.
  printf '[libfuzzer]\ntimeout = 60\nrss_limit_mb = 4096\n' >"$OUT/fuzz_differential.options"
fi
