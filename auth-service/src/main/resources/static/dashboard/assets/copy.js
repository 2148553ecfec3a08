// Copy buttons: <button data-copy-target="element-id"> copies that element's text to the clipboard.
document.querySelectorAll('[data-copy-target]').forEach(function (button) {
  button.addEventListener('click', function () {
    var text = document.getElementById(button.getAttribute('data-copy-target')).textContent;
    navigator.clipboard.writeText(text).then(function () { button.textContent = 'Copied'; });
  });
});
