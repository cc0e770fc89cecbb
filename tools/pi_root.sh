#!/usr/bin/env bash
# Run the installed tablekit on an emulated 64-bit Pi userland: a Debian arm64 root made with
# `debootstrap --foreign` (first stage only: nothing arm64 runs to build it) and run through
# qemu-user-static. A tool to run by hand (it downloads Debian packages and wheels), not CI.
#
#   sudo apt install debootstrap qemu-user-static
#   sudo tools/pi_root.sh bookworm /tmp/pi-root      # CPython 3.11, as Raspberry Pi OS Bookworm
#   sudo tools/pi_root.sh trixie /tmp/pi-root        # CPython 3.13, as Raspberry Pi OS Trixie
#
# It checks imports, `tablekit --help`, a scored hand and the truth-reader demo for one hand
# (its files in $work/$suite/tmp/demo), and keeps everything it prints in $work/$suite.log.
# A minbase root with python3 is enough: every shared library the wheels link is in it or in
# the wheels themselves. The demo takes half an hour or more: everything runs emulated.
# onnxruntime is installed but not imported: it segfaults at import under qemu-user, so the
# models cannot be run this way (tablekit doctor on a real Pi does that).
set -euo pipefail
suite="${1:-bookworm}"
work="${2:-/tmp/pi-root}"
case "$suite" in
    bookworm) python=3.11; extra="lgpio>=0.2" ;;
    trixie) python=3.13; extra="" ;;     # lgpio: apt's python3-lgpio on the Pi (not in Debian)
    *) echo "pi_root: bookworm or trixie, not $suite" >&2; exit 2 ;;
esac
here="$(cd "$(dirname "$0")/.." && pwd)"
root="$work/$suite"
mkdir -p "$work"
exec > >(tee "$work/$suite.log") 2>&1

if [ ! -x "$root/usr/bin/python$python" ]; then
    echo "pi_root: debootstrap $suite (arm64, first stage) into $root"
    debootstrap --foreign --arch=arm64 --variant=minbase \
        --include=python3 "$suite" "$root" \
        http://deb.debian.org/debian >"$work/$suite-debootstrap.log"
    for deb in "$root"/var/cache/apt/archives/*.deb; do dpkg-deb -x "$deb" "$root"; done
fi

echo "pi_root: the wheel and its aarch64 dependencies for CPython $python"
wheel="$work/$suite-wheel"      # one per suite: both may run at once
rm -rf "$here/build" "$wheel" "$root/opt/site"
python3 -m pip wheel -q --no-deps "$here" -w "$wheel"
platforms=()
for tag in manylinux_2_36 manylinux_2_34 manylinux_2_28 manylinux_2_17 manylinux2014; do
    platforms+=(--platform "${tag}_aarch64")
done
# shellcheck disable=SC2086  # $extra is empty or one requirement
python3 -m pip install -q --only-binary=:all: "${platforms[@]}" --python-version "$python" \
    --implementation cp --target "$root/opt/site" "$wheel"/tablekit-*.whl $extra

emulated() {
    qemu-aarch64-static -L "$root" -E PYTHONPATH=/opt/site -E HOME=/tmp \
        -E SDL_VIDEODRIVER=dummy "$root/usr/bin/python$python" "$@"
}
modules="numpy, cv2, pygame, gpiozero, mahjong, tablekit"
[ -n "$extra" ] && modules="$modules, lgpio"
echo "pi_root: under qemu: import $modules"
emulated -c "import platform, $modules; print(platform.machine(), platform.python_version(), \
'numpy', numpy.__version__, 'opencv', cv2.__version__, 'pygame-ce', pygame.version.ver)"
emulated -m tablekit.cli --help >/dev/null && echo "pi_root: tablekit --help: OK"
emulated -m tablekit.cli score 234m567p345s11s --win 1s --meld pon:777z --dora 1m --dora 4p \
    | tail -1
mkdir -p "$root/tmp"
# A relative folder: qemu-user opens an absolute path on the host unless it exists in the root.
(cd "$root/tmp" && time emulated -m tablekit.cli demo --hands 1 --reader truth \
    --display headless:demo)
echo "pi_root: $suite: OK"
