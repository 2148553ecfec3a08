package dev.visibility.auth.signin;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/** The sign-in form ({@code POST /login} is Spring Security's form login). */
@Controller
class SignInController {

    static final String GENERIC_FAILURE = "The email or password is not right.";
    static final String THROTTLED = "Too many failed sign-ins for this email. Wait 15 minutes and try again.";

    @GetMapping("/login")
    String signIn(@RequestParam(required = false) String error, @RequestParam(required = false) String throttled,
            @RequestParam(required = false) String signedOut, Model model) {
        if (throttled != null) {
            model.addAttribute("failure", THROTTLED);
        } else if (error != null) {
            model.addAttribute("failure", GENERIC_FAILURE);
        }
        model.addAttribute("signedOut", signedOut != null);
        return "login";
    }
}
