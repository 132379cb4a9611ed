package io.strata.core.conf;

/** Bad configuration: an unknown key or a value of the wrong form. The message is for the user. */
public class OptionException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public OptionException(String message) {
        super(message);
    }
}
