"""A private PostgreSQL for tests: `initdb` into a temporary folder, started as a non-root user
on a free loopback port (Unix socket in the same folder), stopped and removed at the end.

Debian's `postgresql` package provides the binaries (scripts/setup installs it); they live in
/usr/lib/postgresql/<major>/bin. As root, the server runs as the `postgres` user the package
creates (PostgreSQL refuses to run as root)."""
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time


def postgres_bin():
    """The newest installed PostgreSQL's bin folder, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    return os.path.dirname(found[-1]) if found else None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PrivatePostgres:
    def __init__(self):
        self.bin = postgres_bin()
        if not self.bin:
            raise RuntimeError("PostgreSQL is not installed (scripts/setup installs Debian's postgresql)")
        self.user = None
        if os.getuid() == 0:
            self.user = "postgres"
            pwd.getpwnam(self.user)
        self.dir = tempfile.mkdtemp(prefix="liftboard-pg-")
        if self.user:
            shutil.chown(self.dir, self.user)
        self.data = os.path.join(self.dir, "data")
        self.port = free_port()
        self.databases = 0
        self._run("initdb", "-D", self.data, "-U", "liftboard", "--auth=trust", "--encoding=UTF8", "--no-locale")
        with open(os.path.join(self.data, "postgresql.conf"), "a") as f:
            f.write(f"\nlisten_addresses = '127.0.0.1'\nport = {self.port}\nunix_socket_directories = '{self.dir}'\n"
                    "max_connections = 200\nshared_buffers = 32MB\n")

    def _run(self, tool, *args, check=True):
        cmd = [os.path.join(self.bin, tool), *args]
        if self.user:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        return subprocess.run(cmd, capture_output=True, text=True, check=check, timeout=60)

    def start(self):
        self._run("pg_ctl", "-D", self.data, "-l", os.path.join(self.dir, "log"), "-w", "-t", "30", "start")
        return self

    def stop(self, mode="fast"):
        """Stops the server (`immediate`: as a crash, no checkpoint)."""
        self._run("pg_ctl", "-D", self.data, "-m", mode, "-w", "stop", check=False)

    def create_database(self):
        """A fresh database; its postgresql:// URL."""
        self.databases += 1
        name = f"t{self.databases}_{os.getpid()}"
        self.psql("postgres", f"CREATE DATABASE {name}")
        return self.url(name)

    def url(self, name):
        return f"postgresql://liftboard@127.0.0.1:{self.port}/{name}"

    def psql(self, database, sql):
        out = self._run("psql", "-X", "-q", "-A", "-t", "-h", "127.0.0.1", "-p", str(self.port), "-U", "liftboard",
                        "-d", database, "-c", sql)
        return out.stdout.strip()

    def destroy(self):
        self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)


def wait_until(pred, timeout=10, interval=0.05):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = pred()
        if v:
            return v
        time.sleep(interval)
    return pred()
