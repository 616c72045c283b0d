"""Helpers shared by the Python benchmark scripts under bench/ (ops_table.py,
compare/marian_compare.py, server/load.py), which put bench/ on sys.path to import it."""
import platform


def cpu_name(fallback=""):
    """The CPU's model name from /proc/cpuinfo, else platform.processor(), else fallback."""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or fallback
