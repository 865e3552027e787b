#!/usr/bin/env bash
# Lays out under ROOT what a base image would bring, made from this machine so that no registry is
# needed (`mvn package` of this module runs it before Jib writes the image; src/main/image adds the
# entrypoint script and /etc's few files):
#   ROOT/opt/java                 a Java runtime made with jlink from the build's JDK (MODULES)
#   ROOT/bin/sh                   the shell the entrypoint script runs in (this machine's /bin/sh)
#   ROOT/lib..., ROOT/lib64/...   every shared library those need, and the native libraries inside
#                                 the dependencies' jars (RocksDB, zstd, snappy, lz4, Netty), as
#                                 ldd resolves them here, copied as plain files to the same paths
#   ROOT/tmp, ROOT/var/lib/tributary, ROOT/var/cache/tributary   empty directories (writable: pom.xml)
#
#   scripts/rootfs.sh ROOT CLASSPATH_FILE MODULES JDK
# CLASSPATH_FILE: the jars' paths, colon-separated (maven-dependency-plugin's build-classpath);
# MODULES: the Java modules, comma-separated; JDK: the JDK whose jlink and jmods make the runtime
# (the one Maven runs on).
set -euo pipefail
if [ $# -ne 4 ]; then
  echo "usage: rootfs.sh ROOT CLASSPATH_FILE MODULES JDK" >&2
  exit 2
fi
ROOT="$(realpath -m "$1")"
CLASSPATH_FILE="$2"
MODULES="$3"
JDK="$4"

fail() {
  echo "tributary-image: $*" >&2
  exit 1
}

# Jib writes FROM scratch images for linux/amd64, and every file here is this machine's
[ "$(uname -m)" = x86_64 ] || fail "the image is linux/amd64, and this machine is $(uname -m): build it on an amd64 one"
[ -x "$JDK/bin/jlink" ] || fail "no jlink in $JDK: run Maven on a JDK 17"
[ -f "$JDK/jmods/java.base.jmod" ] ||
  fail "$JDK has no jmods/, which jlink needs (Debian's openjdk-17-jdk-headless has them)"
command -v ldd >/dev/null || fail "ldd is needed to find the runtime's shared libraries"

rm -rf "$ROOT"
mkdir -p "$ROOT/opt" "$ROOT/bin" "$ROOT/tmp" "$ROOT/var/lib/tributary" "$ROOT/var/cache/tributary"
# Desktop libraries that need X11, sound or fonts are left out: java.desktop is there for
# java.beans, which libraries use, and AWT runs headless.
EXCLUDED='**/libawt_xawt.so,**/libjawt.so,**/libsplashscreen.so,**/libjsound.so'
EXCLUDED+=',**/libfontmanager.so,**/liblcms.so,**/libjavajpeg.so'
"$JDK/bin/jlink" --add-modules "$MODULES" --output "$ROOT/opt/java" \
  --strip-debug --no-header-files --no-man-pages --exclude-files="$EXCLUDED"
cp -L /bin/sh "$ROOT/bin/sh"

# The ELF files whose libraries the image needs: its own, and the native libraries that
# dependencies extract and load at run time. ldd resolves only this machine's architecture; the
# other systems' libraries some jars carry too are left out by their paths.
NATIVE="$(mktemp -d)"
trap 'rm -rf "$NATIVE"' EXIT
tr ':' '\n' < "$CLASSPATH_FILE" | while read -r jar; do
  [ -n "$jar" ] || continue
  mkdir -p "$NATIVE/$(basename "$jar")"
  unzip -q -o "$jar" '*.so' -x '*[Ss]un[Oo][Ss]*' '*[Ff]ree[Bb][Ss][Dd]*' '*[Aa][Ii][Xx]*' '*[Dd]arwin*' '*[Mm]usl*' \
    -d "$NATIVE/$(basename "$jar")" 2>/dev/null || true
done

needed="$(mktemp)"
missing="$(mktemp)"
while IFS= read -r -d '' elf; do
  out="$(ldd "$elf" 2>/dev/null)" || continue # another architecture's library, or no ELF file
  # libjvm.so is the runtime's own (lib/server): the loader finds it beside the library that needs it
  printf '%s\n' "$out" | awk '/=> not found/ && $1 != "libjvm.so" {print $1}' >> "$missing"
  printf '%s\n' "$out" | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}' >> "$needed"
done < <(find "$ROOT" "$NATIVE" -type f \( -name '*.so' -o -name '*.so.*' -o -perm -u+x \) -print0)
if [ -s "$missing" ]; then
  fail "shared libraries not found on this machine: $(sort -u "$missing" | tr '\n' ' ')"
fi
sort -u "$needed" | while read -r lib; do
  case "$lib" in "$ROOT"/*) continue ;; esac
  mkdir -p "$ROOT$(dirname "$lib")"
  cp -L "$lib" "$ROOT$lib"
done
rm -f "$needed" "$missing"
echo "tributary-image: base files in $ROOT: $(du -sh "$ROOT" | cut -f1), modules $MODULES"
