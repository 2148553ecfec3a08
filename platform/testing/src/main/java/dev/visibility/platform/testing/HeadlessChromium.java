package dev.visibility.platform.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A real headless Chromium for the dashboard's browser tests: Debian's {@code chromium} driven by
 * its {@code chromium-driver} through Selenium (installed by {@code .ci/run}; nothing is downloaded
 * at run time). Screenshots go to {@code target/screenshots/<name>.png}. Needs Selenium on the
 * test class path (an optional dependency of this module).
 */
public final class HeadlessChromium {

    public static final String BINARY = "/usr/lib/chromium/chromium";
    public static final String DRIVER = "/usr/bin/chromedriver";
    public static final Path SCREENSHOTS = Path.of("target", "screenshots");

    private HeadlessChromium() {
    }

    /** A new browser window (1280 × 1000, no sandbox: the tests run as an unprivileged user without one). */
    public static WebDriver start() {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BINARY);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1280,1000");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(DRIVER)).usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }

    /** Saves what the browser shows as {@code target/screenshots/<name>.png}. */
    public static void screenshot(WebDriver browser, String name) {
        File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        try {
            Files.createDirectories(SCREENSHOTS);
            Files.copy(shot.toPath(), SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
