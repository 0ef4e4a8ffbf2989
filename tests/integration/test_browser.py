"""The Neo4j Browser kit in a real browser: headless Chromium opens the local server's Browser,
sets the parameters, runs cypher/as_of.cypher unchanged, sees the answer, and leaves a screenshot
in artifacts/browser-as-of.png.

Needs Debian's chromium and chromium-driver (.ci/run installs them). Without them the test is
skipped on a developer's machine and fails in CI.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from graphmem.store import queries
from graphmem.core.config import env_config
from graphmem.local.demo import DEMO_EVENTS

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
CHROME_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
                "--window-size=1400,1000"]


def _browser_url(neo4j_target) -> str:
    url = env_config().browser_url
    if url:
        return url
    if neo4j_target.how != "local":
        pytest.skip("Neo4j is not the local server; set GRAPHMEM_BROWSER_URL to test its Browser")
    from graphmem.local import server
    return server.status().browser_url


@pytest.fixture
def chrome():
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if not (chromium and driver):
        message = "Chromium is missing: apt-get install chromium chromium-driver"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for flag in CHROME_FLAGS + [f"--user-data-dir={tempfile.mkdtemp(prefix='graphmem-chrome-')}"]:
        opts.add_argument(flag)
    browser = webdriver.Chrome(service=Service(driver), options=opts)
    yield browser
    browser.quit()


def _wait(predicate, timeout=60.0, step=0.5):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if predicate():
                return True
        except Exception:  # the page is still loading
            pass
        time.sleep(step)
    return False


def _open(chrome, neo4j_target, *, base_cmd: str, arg: str):
    """Open the Browser with ``cmd=base_cmd&arg=arg`` and log in as a person would; the Run button."""
    from selenium.webdriver.common.by import By

    url = _browser_url(neo4j_target)
    bolt = neo4j_target.settings.uri.replace("neo4j://", "bolt://")
    password = neo4j_target.settings.password
    method = "BASIC" if password is not None else "NO_AUTH"  # the local server has auth on by default
    base = f"{url}?dbms={urllib.parse.quote(bolt)}&preselectAuthMethod={method}"
    chrome.get(base + f"&cmd={base_cmd}&arg=" + urllib.parse.quote(arg))
    if password is not None:  # log in as a person would: user neo4j, the generated password
        from selenium.webdriver.support.ui import Select

        method = (By.CSS_SELECTOR, '[data-testid="authenticationMethod"]')
        assert _wait(lambda: chrome.find_element(*method).is_displayed()), "no connect form"
        select = Select(chrome.find_element(*method))  # the fields show once the method changes
        select.select_by_index(2)
        select.select_by_visible_text("Username / Password")
        user = (By.CSS_SELECTOR, '[data-testid="username"]')
        assert _wait(lambda: chrome.find_element(*user).is_displayed()), "no login fields"
        chrome.find_element(*user).clear()
        chrome.find_element(*user).send_keys(neo4j_target.settings.user)
        chrome.find_element(By.CSS_SELECTOR, '[data-testid="password"]').send_keys(password.get_secret_value())
        chrome.find_element(By.CSS_SELECTOR, '[data-testid="connect"]').click()
    run = (By.CSS_SELECTOR, '[data-testid="editor-Run"]')
    assert _wait(lambda: chrome.find_element(*run).is_displayed()), "Browser did not load"
    assert _wait(lambda: "Connected to Neo4j" in chrome.page_source or "server connect" in chrome.page_source)
    return run


def test_as_of_in_neo4j_browser(store, neo4j_target, chrome):
    from selenium.webdriver.common.by import By

    store.apply_many(DEMO_EVENTS)
    params = (f":params {{tenant: '{store.tenant}', subject: 'lin', topic: 'home_address', env: '', "
              f"valid_at: '2026-10-05T00:00:00Z', known_at: '2026-11-30T00:00:00Z'}}")
    run = _open(chrome, neo4j_target, base_cmd="edit", arg=params)
    chrome.find_element(*run).click()
    assert _wait(lambda: "Successfully set your parameters" in chrome.page_source)

    # The query file, unchanged but for its comments (the editor would keep them as one line).
    text = " ".join(line.strip() for line in queries.get("as_of").text.splitlines()
                    if line.strip() and not line.lstrip().startswith("//"))
    chrome.find_element(By.CSS_SELECTOR, '[data-testid="activeEditor"]').click()
    chrome.switch_to.active_element.send_keys(text)
    chrome.find_element(*run).click()
    found = _wait(lambda: "河湾路" in chrome.page_source and "m0918" in chrome.page_source)
    ARTIFACTS.mkdir(exist_ok=True)
    chrome.save_screenshot(str(ARTIFACTS / "browser-as-of.png"))
    assert found, "the as-of answer (河湾路, source m0918) did not appear; see artifacts/browser-as-of.png"


def test_the_graphmem_guide_plays_in_neo4j_browser(neo4j_target, chrome):
    """``:play`` of the guide the local server serves: its slides, with graphmem's own queries."""
    from graphmem.local import browser_guide

    port = urllib.parse.urlparse(_browser_url(neo4j_target)).port
    guide = f"http://127.0.0.1:{browser_guide.guide_port(port or 7474)}/{browser_guide.GUIDE_NAME}"
    run = _open(chrome, neo4j_target, base_cmd="edit", arg=f":play {guide}")
    # Browser learns which hosts it may fetch a guide from only once it is connected
    assert _wait(lambda: "connected as user" in chrome.page_source), "Browser did not connect"
    chrome.find_element(*run).click()
    shown = _wait(lambda: "every fact has a valid time and a record time" in chrome.page_source)
    if not shown and "No guide by that name" in chrome.page_source:
        # "connected" can show before Browser has read the server's allowed guide hosts (seen once
        # under load): the guide is refused as unknown; playing it again after that read shows it
        chrome.find_element(*run).click()
        shown = _wait(lambda: "every fact has a valid time and a record time" in chrome.page_source)
    ARTIFACTS.mkdir(exist_ok=True)
    chrome.save_screenshot(str(ARTIFACTS / "browser-guide.png"))
    assert shown, f"the guide at {guide} did not show; see artifacts/browser-guide.png"
    # the slides after the first carry graphmem's own queries, as the server wrote them
    with urllib.request.urlopen(guide, timeout=10) as response:
        served = response.read().decode("utf-8")
    assert served == browser_guide.render()
