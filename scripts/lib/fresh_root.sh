# Fresh roots of Debian and Ubuntu releases, for the checks that prove what a new machine gets
# (scripts/fresh_machine_check.sh, scripts/wheel_matrix.sh). Sourced; needs root, mmdebstrap and
# unshare, and the network to the distributions' archives and PyPI.

# Prints the keyring that verifies Ubuntu's archive, fetched once into /var/tmp: Debian 12 has no
# package of it, so it comes from Debian 13's ubuntu-keyring, which apt verifies against Debian's
# own keys.
kscope_ubuntu_keyring() {
  local dir=/var/tmp/kscope-ubuntu-keyring
  local keyring=$dir/usr/share/keyrings/ubuntu-archive-keyring.gpg
  if [ ! -f "$keyring" ]; then
    local apt=$dir/apt
    mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
    echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]" \
         "http://deb.debian.org/debian trixie main" >"$apt/sources.list"
    local o=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
             -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -o APT::Sandbox::User=root)
    apt-get "${o[@]}" update -qq >/dev/null
    (cd "$dir" && apt-get "${o[@]}" download -qq ubuntu-keyring >/dev/null)
    dpkg -x "$dir"/ubuntu-keyring_*.deb "$dir"
  fi
  echo "$keyring"
}

# kscope_fresh_root ROOT SUITE [PACKAGE,...]: a minimal root of SUITE (a Debian or an Ubuntu
# release by its code name) with apt (not part of Ubuntu's minimal base), ca-certificates and the
# packages named, and this network's trust settings (behind a TLS-intercepting proxy pip and apt
# over https need the host's local CAs and pip configuration, as any machine on the network has
# them).
kscope_fresh_root() {
  local root=$1 suite=$2 packages=${3:-}
  local mirror=http://deb.debian.org/debian keyring=() components=main
  case $suite in
    bionic | focal | jammy | noble | plucky | questing | resolute)
      mirror=http://archive.ubuntu.com/ubuntu components="main,universe"
      keyring=(--keyring="$(kscope_ubuntu_keyring)") ;;
  esac
  mmdebstrap --quiet --variant=minbase --components="$components" "${keyring[@]}" \
    --include="apt,ca-certificates${packages:+,$packages}" "$suite" "$root" "$mirror"
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
    chroot "$root" update-ca-certificates >/dev/null 2>&1
  fi
  if [ -f /etc/pip.conf ]; then cp /etc/pip.conf "$root/etc/pip.conf"; fi
}

# kscope_root_cuda ROOT CUDA_DIR: the toolkit's place in ROOT, as NVIDIA's installer leaves it
# (the directory, the /usr/local/cuda link, the loader's configuration: CUPTI opens
# libnvperf_host.so by name); kscope_in_root mounts the toolkit there.
kscope_root_cuda() {
  local root=$1 cuda_dir=$2
  mkdir -p "$root$cuda_dir"
  [ "$cuda_dir" = /usr/local/cuda ] || ln -sfn "$cuda_dir" "$root/usr/local/cuda"
  echo "$cuda_dir/lib64" >"$root/etc/ld.so.conf.d/zz-kscope-cuda.conf"
  [ -d "$cuda_dir/lib" ] && echo "$cuda_dir/lib" >>"$root/etc/ld.so.conf.d/zz-kscope-cuda.conf"
  return 0
}

# kscope_in_root ROOT CUDA_DIR SCRIPT [NAME=VALUE...]: runs the bash SCRIPT in ROOT as root with
# nothing of this machine's environment but the variables given, in a private mount namespace
# (the mounts vanish when it ends, whatever happens); CUDA_DIR (or "" for none) is mounted
# read-only at its own path.
kscope_in_root() {
  local root=$1 cuda_dir=$2 script=$3
  shift 3
  unshare --mount --propagation private bash -euo pipefail -c '
    root=$1 cuda=$2 script=$3
    shift 3
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    if [ -n "$cuda" ]; then
      mount --bind "$cuda" "$root$cuda"
      mount -o remount,bind,ro "$root$cuda"
    fi
    chroot "$root" ldconfig
    exec chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
      PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@" \
      /bin/bash -euo pipefail -c "$script"
  ' in_root "$root" "$cuda_dir" "$script" "$@"
}
