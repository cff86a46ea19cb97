-- Counts the game's starts in its saved data: in the live page that is localStorage, so
-- each page load reads what the load before it saved.
function on_start()
  ludus.save("loads", (ludus.saved("loads") or 0) + 1)
end
