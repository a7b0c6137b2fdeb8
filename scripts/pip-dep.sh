# Sourced by scripts that need one file from a PyPI package the CUDA toolkit here lacks
# (setup-nvml.sh: nvml.h; sass-diff.sh: nvdisasm).
#   pip_dep_file PACKAGE DEST NAME  prints the path of the file NAME under DEST, first
#                                   installing PACKAGE there (pip --target) when it is missing;
#                                   returns 1, with a message, when it cannot.
pip_dep_file() {
  local package="$1" dest="$2" name="$3" path
  path="$(find "$dest" -name "$name" -type f -print -quit 2>/dev/null || true)"
  if [ -z "$path" ]; then
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
      --target "$dest" "$package" >&2 || { echo "pip_dep_file: cannot install $package" >&2; return 1; }
    path="$(find "$dest" -name "$name" -type f -print -quit)"
    [ -n "$path" ] || { echo "pip_dep_file: $name not found under $dest after installing $package" >&2; return 1; }
    echo "installed $path" >&2
  fi
  echo "$path"
}
