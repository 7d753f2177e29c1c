package dev.coffer.app.ui;

import dev.coffer.app.os.CloudSyncFolders;
import dev.coffer.app.ui.CreateVaultViewModel.Step;
import dev.coffer.app.vaults.Theme;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.RadioButton;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.DirectoryChooser;
import javafx.stage.FileChooser;
import javafx.stage.Stage;
import javafx.stage.Window;
import javafx.util.Duration;

/**
 * The create wizard's pages (name, location, passphrase with strength meter and content mode,
 * recovery key with copy, save and the written-down confirmation), with Back / Next / Create /
 * Done as the default button and Cancel as the cancel button. Creation runs in the background
 * with a progress indicator.
 *
 * <p>Not responsible for the rules or the creation ({@link CreateVaultViewModel}). The recovery key
 * is only in the word grid while its page is shown: leaving the page or closing the wizard empties
 * the grid and takes the words off the clipboard, so no node of the scene keeps them; saving it
 * writes where the person chose.
 */
public final class CreateVaultWizard {
    private final CreateVaultViewModel vm;
    private final Messages m;
    private final Stage stage;
    private final BorderPane root = new BorderPane();
    private final HBox dots = new HBox();
    private final Label stepLabel = new Label();
    private final Button back;
    private final Button next;
    private final Button cancel;
    private final PassphraseField passphrase;
    private final PassphraseField confirmation;
    private final Label status = new Label();
    private final TextField nameField = new TextField();
    private final TextField locationField = new TextField();
    private final HBox strengthBar = new HBox();
    private final RecoveryKeyView recoveryWords = new RecoveryKeyView("wizard-recovery-key");
    private final CheckBox writtenDown;
    /** One per wizard: Copy clicked again restarts its timer. */
    private final SecretClipboard clipboard;
    /** What keeps Next disabled on the pages that need it: made once, bound while the page is shown. */
    private final BooleanBinding cannotCreate;
    private final BooleanBinding notWrittenDown;
    /**
     * Each page is built once and shown again when the person comes back to it: a page built anew
     * each time left the old one's listeners on the fields and the ViewModel, which outlive it, still
     * measuring every passphrase typed into a page no longer shown, and lost the choices made on it.
     */
    private final Map<Step, Node> pages = new EnumMap<>(Step.class);

    CreateVaultWizard(CreateVaultViewModel vm, Window owner, Theme theme) {
        this(vm, owner, theme, SecretClipboard.DEFAULT_DELAY);
    }

    /** With the time the copied recovery key stays on the clipboard (tests shorten it). */
    CreateVaultWizard(CreateVaultViewModel vm, Window owner, Theme theme, Duration clipboardDelay) {
        this.vm = vm;
        this.clipboard = new SecretClipboard(clipboardDelay);
        this.m = vm.messages();
        passphrase = new PassphraseField(m, "wizard-passphrase");
        confirmation = new PassphraseField(m, "wizard-confirm");
        writtenDown = new CheckBox(m.get("create.recovery.confirm"));
        back = Dialogs.button(m.get("create.back"), "wizard-back");
        next = Dialogs.button(m.get("create.next"), "wizard-next", "primary");
        next.setDefaultButton(true);
        cancel = Dialogs.button(m.get("create.cancel"), "wizard-cancel");
        cancel.setCancelButton(true);
        cannotCreate = vm.busy().or(vm.passphraseAcceptable().not());
        notWrittenDown = writtenDown.selectedProperty().not();
        dots.getStyleClass().add("step-dots");
        stepLabel.getStyleClass().addAll("muted", "small");
        HBox progress = new HBox(10, dots, stepLabel);
        progress.setAlignment(Pos.CENTER_LEFT);
        root.setBottom(Dialogs.buttonBar(progress, cancel, back, next));
        root.setId("create-wizard");
        root.setPrefSize(600, 540);
        stage = Dialogs.modal(owner, m.get("create.title"), root, theme);
        pages.put(Step.NAME, body(namePage()));
        pages.put(Step.LOCATION, body(locationPage()));
        pages.put(Step.PASSPHRASE, body(passphrasePage()));
        pages.put(Step.RECOVERY_KEY, body(recoveryPage()));

        back.setOnAction(e -> vm.back());
        next.setOnAction(e -> onNext());
        cancel.setOnAction(e -> stage.close());
        back.disableProperty().bind(vm.busy());
        cancel.disableProperty().bind(vm.busy());
        passphrase.edits().addListener((o, a, b) -> measure());
        confirmation.edits().addListener((o, a, b) -> measure());
        stage.setOnShown(e -> focus(vm.step().get()));
        // as Cancel, the window's close button waits for the creation: closed meanwhile, the new vault's
        // recovery key would never be shown, and would fill the labels of a closed window
        stage.setOnCloseRequest(e -> {
            if (vm.busy().get()) {
                e.consume();
            }
        });
        stage.setOnHidden(e -> {
            clipboard.clear(); // the words, if still there, go with the wizard; so does its timer
            recoveryWords.show("");
            vm.finish();
            passphrase.clear(); // clear, not take: take's copy would stay in memory unwiped
            confirmation.clear();
        });
        vm.step().addListener((o, a, b) -> showStep());
        showStep();
    }

    public CreateVaultViewModel viewModel() {
        return vm;
    }

    public Stage stage() {
        return stage;
    }

    public void show() {
        stage.show();
    }

    private void onNext() {
        switch (vm.step().get()) {
            case NAME, LOCATION -> vm.next();
            case PASSPHRASE -> vm.create(passphrase.take(), confirmation.take());
            case RECOVERY_KEY -> {
                if (vm.canFinish()) {
                    stage.close();
                }
            }
        }
    }

    /** Shows the step's page (built once) and wires the buttons to it; undone by the next step's call. */
    private void showStep() {
        Step step = vm.step().get();
        int index = step.ordinal();
        dots.getChildren().clear();
        for (int i = 0; i < Step.values().length; i++) {
            Region dot = new Region();
            dot.getStyleClass().addAll("step-dot", i < index ? "done" : i == index ? "current" : "todo");
            dots.getChildren().add(dot);
        }
        stepLabel.setText(m.get("create.step", index + 1, Step.values().length));
        back.setVisible(step == Step.LOCATION || step == Step.PASSPHRASE);
        back.setManaged(back.isVisible());
        cancel.setVisible(step != Step.RECOVERY_KEY);
        cancel.setManaged(cancel.isVisible());
        root.setCenter(pages.get(step));
        next.setText(m.get(switch (step) {
            case PASSPHRASE -> "create.create";
            case RECOVERY_KEY -> "create.finish";
            default -> "create.next";
        }));
        // the words are in the grid only while their page is shown
        recoveryWords.show(step == Step.RECOVERY_KEY ? vm.recoveryKey().get() : "");
        // unbind keeps the last value: a page without a binding must enable Next itself
        next.disableProperty().unbind();
        switch (step) {
            case NAME, LOCATION -> next.setDisable(false);
            case PASSPHRASE -> {
                measure(); // the name, one of the meter's context words, may have changed meanwhile
                next.disableProperty().bind(cannotCreate);
            }
            case RECOVERY_KEY -> next.disableProperty().bind(notWrittenDown);
        }
        if (stage.isShowing()) {
            focus(step);
        }
    }

    private void focus(Step step) {
        switch (step) {
            case NAME -> nameField.requestFocus();
            case LOCATION -> locationField.requestFocus();
            case PASSPHRASE -> passphrase.requestFocus();
            case RECOVERY_KEY -> writtenDown.requestFocus();
        }
    }

    private static Node body(Node page) {
        VBox body = new VBox(page);
        body.getStyleClass().add("dialog-body");
        VBox.setVgrow(page, Priority.ALWAYS);
        return body;
    }

    private Node namePage() {
        nameField.setId("wizard-name");
        nameField.textProperty().bindBidirectional(vm.name());
        nameField.setPromptText("Tax papers");
        Label label = new Label(m.get("create.name.label"));
        label.getStyleClass().add("h3");
        label.setLabelFor(nameField);
        return page(Dialogs.heading(m.get("create.name.heading"), m.get("create.name.text")),
                new VBox(6, label, nameField), error());
    }

    private Node locationPage() {
        locationField.setId("wizard-location");
        locationField.textProperty().bindBidirectional(vm.location());
        HBox.setHgrow(locationField, Priority.ALWAYS);
        Button choose = Dialogs.button(m.get("create.location.choose"), "wizard-choose");
        choose.setGraphic(Icons.of(Icons.FOLDER, 14));
        choose.setOnAction(e -> {
            DirectoryChooser c = new DirectoryChooser();
            File current = new File(vm.location().get());
            if (current.isDirectory()) {
                c.setInitialDirectory(current);
            }
            File chosen = c.showDialog(stage);
            if (chosen != null) {
                vm.location().set(chosen.getAbsolutePath());
            }
        });
        Label label = new Label(m.get("create.location.label"));
        label.getStyleClass().add("h3");
        label.setLabelFor(locationField);
        VBox found = new VBox(8);
        Label foundTitle = new Label(m.get(vm.syncFolders().isEmpty() ? "create.location.none" : "create.location.found"));
        foundTitle.getStyleClass().add(vm.syncFolders().isEmpty() ? "muted" : "caps");
        found.getChildren().add(foundTitle);
        ToggleGroup group = new ToggleGroup();
        for (CloudSyncFolders.Found f : vm.syncFolders()) {
            Label service = new Label(f.service());
            service.getStyleClass().add("h3");
            Label path = new Label(f.folder().toString());
            path.getStyleClass().addAll("muted", "small");
            ToggleButton t = new ToggleButton();
            t.setGraphic(new HBox(10, Icons.of(Icons.CLOUD, 18, "icon-accent"), new VBox(2, service, path)));
            t.getStyleClass().add("sync-choice");
            t.setMaxWidth(Double.MAX_VALUE);
            t.setToggleGroup(group);
            t.setUserData(f.folder().toString());
            t.setOnAction(e -> vm.location().set(f.folder().toString()));
            found.getChildren().add(t);
        }
        // The folder shown as chosen is the location, also when typed or chosen with "Choose...": the
        // page is built once, so this is no longer redone each time it is shown.
        Runnable showChosen = () -> group.getToggles().forEach(t -> t.setSelected(t.getUserData().equals(vm.location().get())));
        vm.location().addListener((o, a, b) -> showChosen.run());
        showChosen.run();
        Label result = new Label();
        result.getStyleClass().addAll("muted", "small");
        result.textProperty().bind(Bindings.createStringBinding(
                () -> vm.vaultFolder() == null ? "" : m.get("create.location.result", vm.vaultFolder()), vm.location()));
        return page(Dialogs.heading(m.get("create.location.heading"), m.get("create.location.text")), found,
                new VBox(6, label, new HBox(8, locationField, choose), result), error());
    }

    private Node passphrasePage() {
        Label label = new Label(m.get("create.passphrase.label"));
        label.getStyleClass().add("h3");
        Label again = new Label(m.get("create.passphrase.confirm"));
        again.getStyleClass().add("h3");
        strengthBar.getStyleClass().add("strength-bar");
        for (int i = 0; i < 4; i++) {
            Region seg = new Region();
            seg.getStyleClass().add("strength-segment");
            HBox.setHgrow(seg, Priority.ALWAYS);
            seg.setMaxWidth(Double.MAX_VALUE);
            strengthBar.getChildren().add(seg);
        }
        Label strength = new Label();
        strength.setId("wizard-strength");
        strength.getStyleClass().addAll("muted", "small");
        strength.textProperty().bind(vm.strengthText());
        Label problem = Dialogs.errorLabel("wizard-passphrase-problem");
        problem.textProperty().bind(vm.passphraseProblem());

        CheckBox expert = new CheckBox(m.get("create.mode.expert"));
        expert.setId("wizard-expert");
        ToggleGroup modes = new ToggleGroup();
        RadioButton authenticated = new RadioButton(m.get("create.mode.authenticated"));
        authenticated.setToggleGroup(modes);
        authenticated.setSelected(!vm.expertXts().get());
        authenticated.setWrapText(true);
        RadioButton xts = new RadioButton(m.get("create.mode.xts"));
        xts.setId("wizard-xts");
        xts.setToggleGroup(modes);
        xts.setSelected(vm.expertXts().get());
        xts.setWrapText(true);
        vm.expertXts().bind(xts.selectedProperty());
        VBox modeBox = new VBox(6, authenticated, xts);
        modeBox.setStyle("-fx-padding: 0 0 0 26;");
        modeBox.visibleProperty().bind(expert.selectedProperty());
        modeBox.managedProperty().bind(expert.selectedProperty());

        ProgressIndicator spinner = new ProgressIndicator();
        spinner.setPrefSize(18, 18);
        HBox working = new HBox(8, spinner, new Label(m.get("create.creating")));
        working.setAlignment(Pos.CENTER_LEFT);
        working.visibleProperty().bind(vm.busy());
        working.managedProperty().bind(vm.busy());
        passphrase.disableProperty().bind(vm.busy());
        confirmation.disableProperty().bind(vm.busy());
        return page(Dialogs.heading(m.get("create.passphrase.heading"), m.get("create.passphrase.text")),
                new VBox(6, label, passphrase, strengthBar, strength), new VBox(6, again, confirmation, problem),
                new VBox(8, expert, modeBox), error(), working);
    }

    /** Measures the passphrase typed (strength, problems) and lights the strength bar's segments. */
    private void measure() {
        vm.passphraseTyped(passphrase.characters(), confirmation.characters());
        strengthBar.getStyleClass().removeIf(c -> c.startsWith("strength-") && !c.equals("strength-bar"));
        strengthBar.getStyleClass().add("strength-" + vm.strength().get());
        for (int i = 0; i < 4; i++) {
            strengthBar.getChildren().get(i).getStyleClass().remove("on");
            if (passphrase.characters().length() > 0 && i <= Math.max(0, vm.strength().get() - 1)) {
                strengthBar.getChildren().get(i).getStyleClass().add("on");
            }
        }
    }

    private Node recoveryPage() {
        Button copy = Dialogs.button(m.get("create.recovery.copy"), "wizard-copy");
        copy.setOnAction(e -> {
            // The words open the vault: they stay on the clipboard for a minute, and not after the wizard.
            clipboard.copy(vm.recoveryKey().get());
            status.setText(m.get("create.recovery.copied"));
        });
        Button save = Dialogs.button(m.get("create.recovery.save"), "wizard-save");
        save.setOnAction(e -> saveRecoveryKey());
        Button print = Dialogs.button(m.get("create.recovery.print"), "wizard-print");
        print.setOnAction(e -> printRecoveryKey());
        status.getStyleClass().addAll("success-text", "small");
        HBox actions = new HBox(8, copy, save, print, status);
        actions.setAlignment(Pos.CENTER_LEFT);
        writtenDown.setId("wizard-written-down");
        writtenDown.selectedProperty().bindBidirectional(vm.recoveryKeyWrittenDown());
        return page(Dialogs.heading(m.get("create.recovery.heading"), m.get("create.recovery.text")), recoveryWords,
                actions, writtenDown);
    }

    /** Prints the key on a page of its own (name, words), through the system's print dialog. */
    private void printRecoveryKey() {
        javafx.print.PrinterJob job = javafx.print.PrinterJob.createPrinterJob();
        if (job == null) {
            status.setText(m.get("create.recovery.noPrinter"));
            return;
        }
        if (!job.showPrintDialog(stage)) {
            job.cancelJob();
            return;
        }
        Label title = new Label(m.get("create.recovery.printTitle", vm.name().get().strip()));
        title.setStyle("-fx-font-size: 16px; -fx-font-weight: bold; -fx-text-fill: black;");
        RecoveryKeyView words = new RecoveryKeyView("print-recovery-key");
        words.show(vm.recoveryKey().get());
        words.setStyle("-fx-background-color: white;");
        words.getChildren().forEach(n -> n.setStyle("-fx-text-fill: black;"));
        VBox page = new VBox(16, title, words);
        page.setStyle("-fx-padding: 24; -fx-background-color: white;");
        page.setPrefWidth(480);
        status.setText(job.printPage(page) && job.endJob() ? m.get("create.recovery.printed") : m.get("create.recovery.noPrinter"));
        words.show(""); // printed: the page's labels need not keep the words
    }

    /** The clipboard the recovery key is copied to (for tests: one pending clear however often Copy is clicked). */
    SecretClipboard recoveryClipboard() {
        return clipboard;
    }

    private void saveRecoveryKey() {
        FileChooser c = new FileChooser();
        c.setInitialFileName(vm.name().get().strip() + " recovery key.txt");
        File f = c.showSaveDialog(stage);
        if (f == null) {
            return;
        }
        try {
            // bytes, not a String joined with the line break: the bytes are zeroed once written
            byte[] words = vm.recoveryKey().get().getBytes(StandardCharsets.UTF_8);
            byte[] newline = System.lineSeparator().getBytes(StandardCharsets.UTF_8);
            byte[] content = Arrays.copyOf(words, words.length + newline.length);
            System.arraycopy(newline, 0, content, words.length, newline.length);
            Arrays.fill(words, (byte) 0);
            OwnerOnlyFiles.write(f.toPath(), content);
            status.setText(m.get("create.recovery.saved", f.getName()));
        } catch (IOException e) {
            status.setText(m.problem(e));
        }
    }

    private Label error() {
        Label l = Dialogs.errorLabel("wizard-error");
        l.textProperty().bind(vm.error());
        return l;
    }

    private static VBox page(Node... parts) {
        VBox page = new VBox(18);
        page.getChildren().addAll(List.of(parts));
        return page;
    }
}
