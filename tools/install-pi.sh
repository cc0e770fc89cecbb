#!/usr/bin/env bash
# Install tablekit as a service on Raspberry Pi OS 64-bit (Bookworm or Trixie, Pi 4 or Pi 5).
#
#   sudo tools/install-pi.sh [SOURCE]      # SOURCE: this checkout (default) or a tablekit wheel
#   sudo tools/install-pi.sh --no-start    # install and enable, start at the next boot
#
# What it does (every step can be run again safely):
#  1. apt: Python's venv, picamera2 and rpicam-apps (the camera), python3-lgpio (GPIO on
#     Python 3.13, where lgpio has no wheel), and SDL's KMSDRM run-time libraries
#     (libgbm1, libegl1, libgles2) that pygame-ce's wheel loads to draw without a desktop,
#     and fonts-droid-fallback (about 4 MB) so players' names in Japanese or Chinese show;
#  2. the service user `tablekit` (groups video, render, input, gpio), no login;
#  3. /opt/tablekit/.venv with the system's site packages (picamera2 and lgpio come from apt),
#     tablekit installed into it (not editable: the checkout can go);
#  4. /etc/tablekit/pinout.toml, the pin map to edit (kept if it is already there);
#  5. /var/lib/tablekit, the state and working directory, owned by `tablekit`;
#  6. the systemd unit, enabled and started; then `tablekit doctor` as the service user.
set -euo pipefail

start=yes
source_arg=""
for arg in "$@"; do
    case "$arg" in
        --no-start) start=no ;;
        -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
        *) source_arg="$arg" ;;
    esac
done
here="$(cd "$(dirname "$0")/.." && pwd)"
source_path="${source_arg:-$here}"
prefix=/opt/tablekit
state=/var/lib/tablekit

if [ "$(id -u)" -ne 0 ]; then
    echo "install-pi: run it with sudo" >&2
    exit 2
fi
if [ ! -e "$source_path" ]; then
    echo "install-pi: $source_path: no such checkout or wheel" >&2
    exit 2
fi

echo "install-pi: apt packages"
apt-get update -q
apt-get install -y -q python3-venv python3-pip python3-picamera2 rpicam-apps python3-lgpio \
    libgbm1 libegl1 libgles2 fonts-droid-fallback

echo "install-pi: the service user"
if ! id tablekit >/dev/null 2>&1; then
    useradd --system --home-dir "$state" --no-create-home --shell /usr/sbin/nologin tablekit
fi
for group in video render input gpio; do
    if getent group "$group" >/dev/null; then usermod -a -G "$group" tablekit; fi
done

echo "install-pi: $prefix/.venv"
mkdir -p "$prefix"
python3 -m venv --system-site-packages "$prefix/.venv"
"$prefix/.venv/bin/pip" install -q --upgrade "$source_path"
if [ -f "$here/README.md" ]; then cp "$here/README.md" "$prefix/README.md"; fi
data="$("$prefix/.venv/bin/python" -c 'from tablekit.files.resources import packaged; print(packaged("data"))')"

echo "install-pi: /etc/tablekit/pinout.toml and $state"
install -d -m 755 /etc/tablekit
if [ ! -f /etc/tablekit/pinout.toml ]; then install -m 644 "$data/pinout.toml" /etc/tablekit/; fi
install -d -m 750 -o tablekit -g tablekit "$state"

echo "install-pi: the systemd unit"
install -m 644 "$data/tablekit.service" /etc/systemd/system/tablekit.service
systemctl daemon-reload
systemctl enable tablekit.service
systemctl stop tablekit.service || true      # doctor needs the camera to itself

echo "install-pi: tablekit doctor (as the service user)"
(cd "$state" && runuser -u tablekit -- env LG_WD="$state" STATE_DIRECTORY="$state" \
    "$prefix/.venv/bin/tablekit" doctor --journal "$state/game.jsonl" \
    --pinout /etc/tablekit/pinout.toml) || true
if [ "$start" = yes ]; then systemctl start tablekit.service; fi
echo "install-pi: done; journalctl -u tablekit -f shows what it reports"
