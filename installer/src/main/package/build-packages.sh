#!/usr/bin/env bash
# Builds Coffer's Linux packages from the app's jars: a jlink'ed runtime with only the JDK and JavaFX
# modules the app needs, then with jpackage an app image (also packed as a portable .tar.gz), a .deb,
# and an .rpm where rpmbuild exists. Driven by `mvn -pl installer -am package -Ppackage`, and by the
# installer's package test; see docs/packaging.md.
#
# Usage: build-packages.sh INPUT_DIR OUTPUT_DIR VERSION [deb|rpm|app-image ...]
#   INPUT_DIR  the app's main jar (coffer-app-*.jar) and every runtime dependency jar
#   OUTPUT_DIR where runtime/, the app image and the packages go (emptied first)
# Needs a JDK 17+ with jmods (Debian's openjdk-17-jdk-headless) or a linkable run-time image, zip, fakeroot and dpkg-deb for the .deb.
set -euo pipefail

input=$(readlink -f "$1"); out=$(readlink -f -m "$2"); version=$3; shift 3
types=("$@"); ((${#types[@]})) || types=(app-image deb rpm)
here=$(dirname "$(readlink -f "$0")")
icons=$(readlink -f "$here/../../../../app/src/main/resources/dev/coffer/app/icons")
log() { echo "build-packages: $*" >&2; }
# The JDK whose runtime the packages bundle: $COFFER_PACKAGE_JDK; else the newest JDK 25+ in
# /usr/lib/jvm with jlink and jpackage, whose runtime gets an AOT cache trained here (a fresh mount
# reads 6-9% faster; docs/packaging.md); else $JAVA_HOME's, else the one that provides javac (JDK 17 on
# Debian 12). COFFER_AOT_CACHE=0 builds without the cache.
# A JDK's feature version (17, 25), from the release file every JDK has.
feature_of() { sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" 2>/dev/null; }
newest_jdk25() {
  local best="" best_feature=0 candidate feature
  for candidate in /usr/lib/jvm/*/; do
    candidate=${candidate%/}
    [ -x "$candidate/bin/jlink" ] && [ -x "$candidate/bin/jpackage" ] || continue
    feature=$(feature_of "$candidate")
    [ -n "$feature" ] && [ "$feature" -ge 25 ] && [ "$feature" -gt "$best_feature" ] && { best=$candidate; best_feature=$feature; }
  done
  echo "$best"
}
jdk=${COFFER_PACKAGE_JDK:-$(newest_jdk25)}
jdk=${jdk:-${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}}

# jlink takes the JDK's modules from its jmods folder (Debian's openjdk-17-jdk-headless has it); a JDK
# 24+ without one can link from its own run-time image (JEP 493) if it was built to allow that.
jdk_modpath=""
[ -d "$jdk/jmods" ] && jdk_modpath="$jdk/jmods:"
main_jar=$(cd "$input" && ls coffer-app-*.jar | head -1)
[ -n "$main_jar" ] || { log "error: no coffer-app-*.jar in $input"; exit 1; }

rm -rf "$out"; mkdir -p "$out/classpath/icons" "$out/javafx"
# The icon sizes go beside the jars (lib/app/icons), where the .deb's postinst installs them into the theme.
cp "$icons"/coffer-*.png "$out/classpath/icons/"
# JavaFX's platform jars are real modules (with their native libraries inside): they go into the
# runtime image. Its classifier-less jars are empty placeholders. Everything else is the class path.
for jar in "$input"/*.jar; do
  name=$(basename "$jar")
  case "$name" in
    javafx-*-linux*.jar) cp "$jar" "$out/javafx/" ;;
    javafx-*.jar) ;;
    *) cp "$jar" "$out/classpath/" ;;
  esac
done

# Parts of three dependencies that a Linux x86-64 package never loads (~6.5 MB installed): Bouncy
# Castle's JCA provider and post-quantum packages (Coffer calls only its lightweight scrypt, CMAC,
# AES and SHAKE classes, never as a signed provider, so its signature files go too), and the native
# libraries that JNA and jffi carry for every other platform. DebPackageIT runs the result.
trim() {
  local jar=$1; shift
  zip -q -d "$jar" "$@" >/dev/null || { log "error: could not trim $jar"; exit 1; }
}
(
  cd "$out/classpath"
  for jar in bcprov-*.jar; do
    [ -e "$jar" ] && trim "$jar" 'org/bouncycastle/pqc/*' 'org/bouncycastle/jcajce/*' 'org/bouncycastle/jce/*' \
      'META-INF/versions/*/org/bouncycastle/pqc/*' 'META-INF/versions/*/org/bouncycastle/jcajce/*' \
      'META-INF/*.SF' 'META-INF/*.DSA' 'META-INF/*.RSA'
  done
  for jar in jna-[0-9]*.jar; do
    [ -e "$jar" ] || continue
    others=$(zipinfo -1 "$jar" | grep -E '^com/sun/jna/[^/]+/libjnidispatch' | grep -v '^com/sun/jna/linux-x86-64/' || true)
    [ -z "$others" ] || trim "$jar" $others
  done
  for jar in jffi-*-native.jar; do
    [ -e "$jar" ] || continue
    others=$(zipinfo -1 "$jar" | grep -E '^jni/.+/.' | grep -v '^jni/x86_64-Linux/' || true)
    [ -z "$others" ] || trim "$jar" $others
  done
)

# The JDK modules the class path uses (jdeps), and the ones it needs without naming them in code:
# jdk.localedata for the German translation, jdk.zipfs for reading jars as file systems,
# jdk.unsupported for jnr-ffi's and jffi's use of sun.misc.Unsafe.
jdk_modules=$("$jdk/bin/jdeps" --print-module-deps --ignore-missing-deps --multi-release 17 \
  --class-path "$out/classpath/*" "$out/classpath/$main_jar")
jdk_modules="$jdk_modules,jdk.localedata,jdk.zipfs,jdk.unsupported"
fx_modules=""
for jar in "$out"/javafx/*.jar; do
  [ -e "$jar" ] || continue
  module=$("$jdk/bin/jar" --describe-module --file "$jar" | head -1 | sed 's/@.*//')
  fx_modules="$fx_modules,$module"
done
modules="$jdk_modules$fx_modules"
log "runtime of $jdk, modules: $modules"

jdk_feature=$(feature_of "$jdk")
# The options below depend on it: a JDK whose version cannot be read would get the wrong ones silently.
[[ $jdk_feature =~ ^[0-9]+$ ]] || { log "error: cannot tell the version of the JDK in $jdk"; exit 1; }
# The same compression (zip level 6) under its JDK 21+ name, which JDK 17 does not know.
compress=2
[ "$jdk_feature" -ge 21 ] && compress=zip-6
"$jdk/bin/jlink" --module-path "$jdk_modpath$out/javafx" --add-modules "$modules" \
  --include-locales=en,de --strip-debug --no-header-files --no-man-pages --compress=$compress \
  --output "$out/runtime"
# JavaFX loads its native libraries from the runtime's lib folder (as from JavaFX's own jmods);
# left inside the modules, it would unpack them into the user's home on every new version.
for jar in "$out"/javafx/*.jar; do
  [ -e "$jar" ] || continue
  natives=$("$jdk/bin/jar" tf "$jar" | grep '\.so$' || true)
  # (jar xf with no names would unpack the whole jar)
  [ -n "$natives" ] && (cd "$out/runtime/lib" && "$jdk/bin/jar" xf "$jar" $natives)
done
# The JDK's and JavaFX's native libraries carry symbol tables that only debuggers read (~5 MB).
if command -v strip >/dev/null; then
  find "$out/runtime/lib" -name '*.so' -exec strip --strip-unneeded {} +
fi

common=(--name Coffer --app-version "$version" --vendor "Coffer" --description "Encrypted vaults for cloud-sync folders"
  --dest "$out")
java_opts=(--java-options "-Dprism.order=es2,sw")
# FUSE hands file names over as bytes, decoded with the default charset: UTF-8 whatever the locale
# (JDK 17 under a C locale would merge different non-ASCII names into one file).
java_opts+=(--java-options "-Dfile.encoding=UTF-8")
# The JVM's own warnings and errors go to stderr, not stdout, where `coffer mount` and `coffer serve`
# print what scripts read. (An AOT cache that does not match its jars, one changed since packaging,
# is ignored with four lines there that no -Xlog option silences; the app runs as without a cache.)
java_opts+=(--java-options "-Xlog:disable" --java-options "-Xlog:all=warning:stderr")
# The same JIT options as app/src/main/launcher/coffer (docs/performance.md, "JIT compilation"): smaller
# inlining limits (a mount's many short requests; 3-7% on fsbench's tree steps), and two compile
# commands that take C2's biggest tasks out of a fresh mount ("quiet" first: nothing on stdout).
java_opts+=(--java-options "-XX:InlineSmallCode=1000" --java-options "-XX:FreqInlineSize=100" --java-options "-XX:MaxInlineLevel=6")
java_opts+=(--java-options "-XX:CompileCommand=quiet" --java-options "-XX:CompileCommand=dontinline,dev/coffer/core/crypto/AesXts.xor*"
  --java-options "-XX:CompileCommand=exclude,jdk/internal/org/objectweb/asm/Frame.execute")
if [ "$jdk_feature" -ge 24 ]; then
  java_opts+=(--java-options "--enable-native-access=ALL-UNNAMED" --java-options "--sun-misc-unsafe-memory-access=allow")
fi

"$jdk/bin/jpackage" --type app-image "${common[@]}" --runtime-image "$out/runtime" \
  --input "$out/classpath" --main-jar "$main_jar" --main-class dev.coffer.app.Main \
  --icon "$icons/coffer-256.png" "${java_opts[@]}"
if [ "$jdk_feature" -ge 25 ] && [ "${COFFER_AOT_CACHE:-1}" != 0 ]; then
  # The cache holds each jar's modification time, and jpackage copies the app image into the .deb
  # with new ones: every file gets the build's time now, and dpkg-deb clamps the copies' times back
  # to it (SOURCE_DATE_EPOCH), so that the installed jars match the cache. tar keeps them anyway.
  export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(date +%s)}
  find "$out/Coffer" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
  "$here/train-aot-cache.sh" "$out/Coffer"
elif [ "$jdk_feature" -ge 25 ]; then
  log "no AOT cache (COFFER_AOT_CACHE=0)"
else
  log "no AOT cache: the runtime is JDK $jdk_feature, an AOT cache takes JDK 25+"
fi
log "app image: $out/Coffer"

for type in "${types[@]}"; do
  case "$type" in
    app-image)
      tar -C "$out" -czf "$out/coffer-$version-linux-x64.tar.gz" Coffer
      log "portable archive: $out/coffer-$version-linux-x64.tar.gz" ;;
    deb|rpm)
      if [ "$type" = rpm ] && ! command -v rpmbuild >/dev/null; then
        log "no rpmbuild on this machine: skipping the .rpm (install rpm to build it)"
        continue
      fi
      if [ "$type" = deb ]; then
        # The resource folder's control, postinst and prerm add Recommends: fuse3 and /usr/bin/coffer.
        # The templates are JDK 17's jpackage's with Coffer's additions. Later jpackages spell the
        # control file's version and the scripts' shared functions differently, so those two parts
        # are taken from this JDK's own templates: its Version line, and in prerm the lines that
        # stand where JDK 17 has UTILITY_SCRIPTS (between the header comment and the case).
        rm -rf "$out/deb-resources" "$out/jpackage-templates"
        cp -r "$here/linux" "$out/deb-resources"
        "$jdk/bin/jimage" extract --dir "$out/jpackage-templates" --include 'regex:.*/template\.(control|prerm)' "$jdk/lib/modules"
        templates="$out/jpackage-templates/jdk.jpackage/jdk/jpackage/internal/resources"
        jdk_version_line=$(grep -h '^Version:' "$templates/template.control")
        [ -n "$jdk_version_line" ] || { log "error: no Version line in $jdk's jpackage control template"; exit 1; }
        sed -i "s/^Version:.*/$jdk_version_line/" "$out/deb-resources/control"
        sed -n '/^# the debian-policy package/,/^case /p' "$templates/template.prerm" | sed '1d;$d' | grep -v '^$' > "$out/prerm-functions"
        [ -s "$out/prerm-functions" ] || { log "error: cannot read $jdk's jpackage prerm template"; exit 1; }
        sed -i -e "/^UTILITY_SCRIPTS\$/{r $out/prerm-functions" -e 'd}' "$out/deb-resources/prerm"
        specific=(--resource-dir "$out/deb-resources" --linux-deb-maintainer "hello@coffer.dev"
          --linux-package-deps "libgtk-3-0, libxtst6, libgl1, libfuse2 | libfuse2t64, xdg-utils")
      else
        specific=(--linux-package-deps "gtk3, libXtst, mesa-libGL, fuse-libs" --linux-rpm-license-type "Proprietary")
      fi
      # rpmbuild clamps the copies' times to SOURCE_DATE_EPOCH (as dpkg-deb does by itself) only with
      # this macro; jpackage takes no macros, so they come from a HOME of this build's own.
      env_for_type=()
      if [ "$type" = rpm ] && [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
        mkdir -p "$out/rpm-home"
        echo '%clamp_mtime_to_source_date_epoch 1' > "$out/rpm-home/.rpmmacros"
        env_for_type=(HOME="$out/rpm-home")
      fi
      # The release (1) is given: JDK 25's jpackage leaves it out of the .deb's version otherwise, and
      # 0.1.0 sorts before JDK 17's 0.1.0-1, so installed over that it would be a downgrade.
      env "${env_for_type[@]}" "$jdk/bin/jpackage" --type "$type" "${common[@]}" --linux-package-name coffer --app-image "$out/Coffer" "${specific[@]}" \
        --linux-app-release 1 \
        --file-associations "$here/vault-association.properties" \
        --linux-shortcut --linux-menu-group "Utility;Security" --linux-app-category utils \
        --icon "$icons/coffer-256.png" --about-url "https://coffer.dev"
      log "package: $(ls "$out"/*."$type")" ;;
    *) log "error: unknown package type $type"; exit 2 ;;
  esac
done
