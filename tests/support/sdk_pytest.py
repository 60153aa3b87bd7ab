"""A pytest plugin for the SDK's Python tests (loaded with -p sdk_pytest):
a skipped test is reported as failed. A test that cannot run here (a
missing Debian package, a missing device) must say so by failing."""

import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.skipped:
        report.outcome = "failed"
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.longrepr = f"skipped tests fail here: {reason}"
