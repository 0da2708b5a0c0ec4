"""/api/docs renders Swagger UI from the package's files, and its JavaScript runs."""


def test_the_api_documentation_page_runs_swagger_ui(live, browser, screenshot):
    page = browser.new_page()
    failed = []
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    page.goto(f"{live.base}/api/docs")
    page.wait_for_selector(".swagger-ui .opblock", timeout=15000)  # drawn by Swagger UI's script
    assert page.evaluate("typeof SwaggerUIBundle") == "function"
    assert page.locator(".opblock-summary-path", has_text="/api/tokens").count() >= 1
    assert not failed, failed
    screenshot(page, "docs")
    page.close()
