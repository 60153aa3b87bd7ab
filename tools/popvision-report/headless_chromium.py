"""Debian's Chromium, headless and offline, driven through selenium: what
the page test and the screenshot script open popvision-report pages with."""

import os
import shutil
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"

# No GPU, no sandbox (root in a container), and nothing that would reach
# for the network: the pages are self-contained. Shared memory in a file
# under /tmp rather than /dev/shm, which containers keep small.
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--hide-scrollbars")


class MissingBrowser(RuntimeError):
    pass


def check_installed():
    """Both programs, or an error naming what is missing and how to get it."""
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not os.access(p, os.X_OK)]
    if missing:
        raise MissingBrowser(
            f"{' and '.join(missing)} not found: install Debian's chromium and "
            "chromium-driver (scripts/install-deps.sh does)")


class Browser:
    """A Chromium with a fresh profile directory, removed on close."""

    def __init__(self, width=1400, height=900):
        check_installed()
        self.profile = tempfile.mkdtemp(prefix="popvision-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={self.profile}")
        options.add_argument(f"--window-size={width},{height}")
        # The console's messages, for checking that a page has no errors.
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        try:
            self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        except Exception:
            shutil.rmtree(self.profile, ignore_errors=True)
            raise
        self.driver.set_page_load_timeout(60)
        self.driver.set_script_timeout(30)

    def open(self, path, view="summary"):
        """Opens a page file at one of its views; returns the driver."""
        self.driver.get("file://" + os.path.abspath(path) + "#" + view)
        self.wait_for_view(view)
        return self.driver

    def show(self, view):
        self.driver.execute_script("location.hash = arguments[0]", view)
        self.wait_for_view(view)

    def wait_for_view(self, view):
        from selenium.webdriver.support.ui import WebDriverWait
        WebDriverWait(self.driver, 30).until(
            lambda d: d.execute_script("return document.body.dataset.view") == view)

    def console_errors(self):
        return [entry for entry in self.driver.get_log("browser")
                if entry["level"] in ("SEVERE", "ERROR")]

    def close(self):
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
