"""Helpers shared by the Python benchmark scripts under bench/ (ops_table.py,
compare/marian_compare.py, server/load.py, server/burst.py), which put bench/ on sys.path
to import it."""
import platform
import subprocess


def cpu_name(fallback=""):
    """The CPU's model name from /proc/cpuinfo, else platform.processor(), else fallback."""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or fallback


def start_server(server, args):
    """Starts edgemt-server (`server`, a path) on a free loopback port with `args`; returns
    the process and its URL once it listens. Exits with the server's first line if it
    does not start."""
    proc = subprocess.Popen([server, "--port", "0", *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True)
    line = proc.stdout.readline()
    if "listening on " not in line:
        proc.kill()
        raise SystemExit("server did not start: " + line)
    return proc, line.split("listening on ")[1].split(" ")[0]
