#!/usr/bin/env bash
# Installs the Debian packages the tests use: the Arduino AVR toolchain and
# platform, simavr and QEMU emulated boards, cmake and ninja (MPLAB for VS Code
# builds), socat ptys, MicroPython firmware, arm-none-eabi-gcc with newlib (ground
# truth for the 32-bit pin tables), Chromium for the panel's browser tests,
# bubblewrap (codex-acp's sandbox needs bwrap to read or patch files), Lua 5.4 and
# Emacs to check the editor configurations `boardbridge setup` writes, tmux (the
# live chat test reads its screen), unzip (registry agents' archives) and sigrok-cli
# (PulseView's own VCD reader, for the simulator's VCD files) and gputils (which PIC10/12/16 parts have
# the baseline or the mid-range core, for the Microchip family table). Skips what is already there.
set -euo pipefail

packages=(
  arduino-core-avr arduino-mighty-1284p arduino-builder gcc-avr avr-libc avrdude
  simavr libsimavr-dev libsimavr-examples gcc libc6-dev make cmake ninja-build socat
  qemu-system-misc qemu-system-arm firmware-microbit-micropython
  chromium bubblewrap gcc-arm-none-eabi libnewlib-arm-none-eabi lua5.4 emacs-nox
  tmux unzip sigrok-cli gputils
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing Debian packages: ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null; then
  as_root=(sudo)
else
  echo "boardbridge tests need these Debian packages: ${missing[*]}" >&2
  echo "  → run as root: apt-get install ${missing[*]}" >&2
  exit 1
fi
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
