#!/usr/bin/env bash
# Installs what the vulkan backend needs on Debian/Ubuntu, idempotently: Mesa's Vulkan
# drivers (llvmpipe, the CPU device CI tests on), the Vulkan loader and headers, glslang
# (VkFFT's GLSL -> SPIR-V compiler, linked statically), vulkaninfo and Khronos' validation
# layer (make test-vulkan runs the tests under it).
set -euo pipefail
pkgs=(mesa-vulkan-drivers libvulkan-dev glslang-dev spirv-tools vulkan-tools vulkan-validationlayers)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi
  echo "setup-vulkan: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
