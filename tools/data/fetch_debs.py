#!/usr/bin/env python3
"""Download the Debian packages of tools/data/packages.txt with `apt-get download`
and extract only their German .mo catalogs.

Layout (cache, reused on reruns):
  DATA/debs/*.deb                 downloaded packages
  DATA/debs/mo/<pkg>/<name>.mo    extracted German catalogs
  DATA/debs/mo/<pkg>/.done        extraction stamp

Usage: python3 tools/data/fetch_debs.py [--data /work/edgemt-data] [--packages FILE]
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
MO_RE = re.compile(r'(^|/)de/LC_MESSAGES/[^/]+\.mo$')  # as find_packages.MO_RE


def read_packages(path):
    with open(path) as f:
        return [l.strip() for l in f if l.strip() and not l.startswith("#")]


def deb_for(debdir, pkg):
    hits = sorted(glob.glob(os.path.join(debdir, glob.escape(pkg) + "_*.deb")))
    return hits[-1] if hits else None


def apt_download(debdir, pkgs):
    cmd = ["apt-get", "download", "-q", "-o", "APT::Sandbox::User=root"] + pkgs
    return subprocess.run(cmd, cwd=debdir, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def download(debdir, pkgs, batch=100):
    missing = [p for p in pkgs if deb_for(debdir, p) is None]
    print(f"[fetch] {len(pkgs) - len(missing)} cached, {len(missing)} to download", file=sys.stderr)
    failed = []
    for i in range(0, len(missing), batch):
        chunk = missing[i:i + batch]
        r = apt_download(debdir, chunk)
        if r.returncode != 0:  # one bad name fails the whole batch: retry one by one
            for p in chunk:
                if deb_for(debdir, p) is None and apt_download(debdir, [p]).returncode != 0:
                    failed.append(p)
        print(f"[fetch] downloaded {min(i + batch, len(missing))}/{len(missing)}", file=sys.stderr)
    if failed:
        print(f"[fetch] could not download {len(failed)}: {' '.join(failed[:20])}", file=sys.stderr)
    return failed


def deb_files(deb, keep):
    """(member name, bytes) of the regular files of a .deb whose tar member name
    (`./usr/...`) `keep` accepts."""
    with tempfile.TemporaryDirectory() as tmp:
        tarpath = os.path.join(tmp, "data.tar")
        with open(tarpath, "wb") as f:
            subprocess.run(["dpkg-deb", "--fsys-tarfile", deb], stdout=f, check=True)
        with tarfile.open(tarpath) as tf:
            for m in tf:
                if m.isfile() and keep(m.name):
                    yield m.name, tf.extractfile(m).read()


def extract(debdir, modir, pkg):
    dest = os.path.join(modir, pkg)
    stamp = os.path.join(dest, ".done")
    if os.path.exists(stamp):
        return
    deb = deb_for(debdir, pkg)
    if deb is None:
        return
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    for name, data in deb_files(deb, MO_RE.search):
        # flatten: <pkg>/<dirhash>__<name>.mo keeps duplicates distinct
        rel = name.lstrip("./").replace("/", "__")
        with open(os.path.join(dest, rel), "wb") as o:
            o.write(data)
    open(stamp, "w").close()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="/work/edgemt-data")
    ap.add_argument("--packages", default=os.path.join(HERE, "packages.txt"))
    args = ap.parse_args()
    debdir = os.path.join(args.data, "debs")
    modir = os.path.join(debdir, "mo")
    os.makedirs(modir, exist_ok=True)
    pkgs = read_packages(args.packages)
    download(debdir, pkgs)
    for i, p in enumerate(pkgs):
        try:
            extract(debdir, modir, p)
        except Exception as e:  # a broken .deb must not stop the corpus build
            print(f"[fetch] extract {p} failed: {e}", file=sys.stderr)
        if (i + 1) % 200 == 0:
            print(f"[fetch] extracted {i + 1}/{len(pkgs)}", file=sys.stderr)
    n = len(glob.glob(os.path.join(modir, "*", "*.mo")))
    print(f"[fetch] {n} German .mo catalogs in {modir}", file=sys.stderr)


if __name__ == "__main__":
    main()
